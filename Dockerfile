FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY core core
COPY tasks tasks
COPY ui ui
COPY cli cli
COPY composition composition
COPY api api
COPY migrations migrations
COPY sample_catalogs sample_catalogs
RUN pip install --no-cache-dir .
RUN useradd --create-home app
USER app
# UI, worker metrics, UI metrics
EXPOSE 8501 9191 9192
CMD ["listing-review", "worker"]
