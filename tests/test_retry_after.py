"""The one Retry-After reading every provider uses (retry_after_seconds), and both providers
using it: the same header gives the same pause from OpenAI and from Gemini.
"""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from core.listings.errors import ReviewError
from core.listings.providers.base import retry_after_seconds
from core.listings.providers.gemini import GeminiProvider
from core.listings.providers.openai_chat import OpenAIChatProvider
from tests.builders import draft
from tests.fake_gemini import FakeGemini
from tests.fake_openai import FakeOpenAI


def in_a_minute() -> str:
    return format_datetime(datetime.now(UTC) + timedelta(seconds=60), usegmt=True)


@pytest.mark.parametrize("headers, seconds", [
    ({"Retry-After": "7"}, 7.0),
    ({"retry-after": " 2.5 "}, 2.5),
    ({"Retry-After-Ms": "1500", "Retry-After": "9"}, 1.5),
    ({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),
    ({"Retry-After": "soon"}, None),
    ({"Retry-After": "-3"}, None),
    ({"Retry-After": "nan"}, None),
    ({}, None),
])
def test_retry_after_reads_seconds_milliseconds_and_dates_whatever_the_case(headers, seconds):
    assert retry_after_seconds(headers) == seconds


def test_an_http_date_is_read_as_the_seconds_until_then():
    assert 50 <= retry_after_seconds({"Retry-After": in_a_minute()}) <= 60


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def rate_limited(provider: GeminiProvider | OpenAIChatProvider) -> ReviewError:
    with pytest.raises(ReviewError) as caught:
        provider.review(draft(), 5.0)
    assert caught.value.code == "AI_RATE_LIMITED"
    return caught.value


@pytest.mark.parametrize("headers", [{"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"},
                                     {"Retry-After-Ms": "1500"}, {"Retry-After": "4"}])
def test_both_providers_read_a_rate_limit_the_same_way(fake_gemini, fake_openai, headers):
    fake_gemini.status(429, headers, {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
                                                "message": "quota"}})
    fake_openai.status(429, headers=headers)
    gemini = GeminiProvider(api_key="k", base_url=fake_gemini.base_url, model="m", timeout=5.0)
    openai = OpenAIChatProvider(name="openai", api_key="k", base_url=fake_openai.base_url,
                                model="m", timeout=5.0)
    assert rate_limited(gemini).retry_after == rate_limited(openai).retry_after \
        == retry_after_seconds(headers)
