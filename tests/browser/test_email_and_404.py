"""What a player sees of email, at 1366×768 and 390×844: an address given at sign-up
and confirmed by its link, a forgotten password set again from the login page by the
mailed link, the "your turn" emails turned off from the account page; and the site's
own 404 page from the development server (DEBUG on, as ``run.py serve``)."""

from __future__ import annotations

import os
import re
import time
from itertools import count

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
_numbers = count(1)


def mail_to(server_env, address: str, subject: str, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in reversed(server_env.mails()):
            if f"To: {address}" in message and subject in message:
                return message
        time.sleep(0.1)
    raise AssertionError(f"no mail {subject!r} to {address}: {server_env.mails()[-2:]}")


def link_in(message: str) -> str:
    return re.search(r"http://\S+", message).group(0)


@pytest.mark.parametrize("size", SIZES)
def test_an_address_confirmed_then_a_forgotten_password_set_again_by_mail(
    browser, server_url, server_env, artifacts, size
):
    width, height = SIZES[size]
    context = browser.new_context(base_url=server_url, viewport={"width": width, "height": height})
    context.set_default_timeout(15000)
    page = context.new_page()
    name = f"mail{os.getpid() % 10000}x{next(_numbers)}{size[0]}"
    address = f"{name}@example.org"
    page.goto("/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_email", address)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.screenshot(path=artifacts / f"signup-email-{size}.png", full_page=True)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server_url}/")

    # The link mailed to the address confirms it.
    page.goto(link_in(mail_to(server_env, address, "Confirm your email address")))
    expect(page.locator(".auth [role=status]")).to_contain_text(f"{address} is confirmed")
    page.goto(f"/players/{name}/")
    page.get_by_test_id("account-link").click()
    expect(page.get_by_test_id("email-state")).to_have_text("Confirmed.")
    page.screenshot(path=artifacts / f"account-{size}.png", full_page=True)
    page.get_by_label("Email me when it is my turn").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".auth [role=status]")).to_have_text("Saved.")
    expect(page.get_by_label("Email me when it is my turn")).not_to_be_checked()
    page.get_by_role("button", name="Log out").click()

    # Forgotten: from the login page, a mailed link sets a new password.
    page.goto("/accounts/login/")
    page.get_by_test_id("forgot-password").click()
    page.fill("#id_email", address)
    page.screenshot(path=artifacts / f"password-reset-{size}.png", full_page=True)
    page.get_by_role("button", name="Mail me a link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    page.goto(link_in(mail_to(server_env, address, "Set a new password")))
    new_password = "a-new-pw-4567"
    page.fill("#id_new_password1", new_password)
    page.fill("#id_new_password2", new_password)
    page.screenshot(path=artifacts / f"password-new-{size}.png", full_page=True)
    page.get_by_role("button", name="Set the password").click()
    expect(page.locator(".auth [role=status]")).to_contain_text("Your new password works now")
    page.goto("/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", new_password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server_url}/")
    expect(page.get_by_test_id("nav-profile")).to_have_text(name)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_missing_page_is_the_sites_own_404(browser, server_url, artifacts, size):
    width, height = SIZES[size]
    context = browser.new_context(base_url=server_url, viewport={"width": width, "height": height})
    page = context.new_page()
    answer = page.goto("/no-such-page/")
    assert answer is not None and answer.status == 404
    expect(page.locator(".brand")).to_be_visible()
    expect(page.get_by_text("Page not found")).to_be_visible()
    expect(page.get_by_text("URLconf")).to_have_count(0)
    page.screenshot(path=artifacts / f"404-{size}.png", full_page=True)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_footer_leads_to_an_about_page_with_the_api_for_developers(
    browser, server_url, artifacts, size
):
    width, height = SIZES[size]
    context = browser.new_context(base_url=server_url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto("/leaderboard/")
    expect(page.get_by_text("For developers: the API")).to_have_count(0)
    page.get_by_test_id("footer-about").click()
    page.wait_for_url("**/about/")
    expect(page.get_by_role("heading", name="About Kingdom")).to_be_visible()
    expect(page.get_by_role("link", name="API")).to_have_attribute("href", "/api/docs/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=artifacts / f"about-{size}.png", full_page=True)
    context.close()
