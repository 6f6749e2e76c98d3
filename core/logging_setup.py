"""Log output of the CLI and the worker processes: text lines for people, or one JSON object per
line for machines (`listing-review --log-format json`, LISTING_REVIEW_LOG_FORMAT).

What gets logged is decided where records are made: job ids, bounded codes, durations and
exception types, never seller text, prompts or provider messages.
"""

import json
import logging
import sys
from datetime import UTC, datetime
from typing import TextIO

TEXT_FORMAT = "%(asctime)s %(process)d %(levelname)s %(message)s"
# Structured fields a record may carry (`extra=`): JSON lines give each its own key.
FIELDS = ("job_id", "attempt", "outcome", "code", "error", "duration_seconds")


class JsonLineFormatter(logging.Formatter):
    """A record as one JSON object: time, level, logger, process, message and its fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "process": record.process,
            "message": record.getMessage(),
        }
        entry |= {name: getattr(record, name) for name in FIELDS if hasattr(record, name)}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class _OurHandler(logging.StreamHandler[TextIO]):
    """The handler this module installs (configuring again replaces only it). It writes to
    whatever sys.stderr is when a record is emitted, as test runners swap it.
    """

    def __init__(self) -> None:
        logging.Handler.__init__(self)

    @property
    def stream(self) -> TextIO:  # type: ignore[override]
        return sys.stderr


def configure_logging(log_format: str = "text", level: int = logging.INFO) -> None:
    """Send this process's logs to stderr in `log_format` (text|json) at `level`.

    Only a handler installed here is replaced; others (a test runner's) are left alone.
    Python warnings become log records so that JSON output stays one object per line.
    """
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _OurHandler)]:
        root.removeHandler(handler)
    handler = _OurHandler()
    handler.setFormatter(JsonLineFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
