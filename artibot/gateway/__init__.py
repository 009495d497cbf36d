"""The local API gateway: a routing decision takes effect on the request Claude Code (or Codex
CLI) sends.

``profiles`` (which profile a request gets, and the rewritten body), ``responses`` (Codex
CLI's Responses API requests and their ``configuration_update`` items), ``usage`` (the
tokens a response reports) and ``pricing`` (their price) are pure and tested without a
network; ``server`` is the aiohttp edge; ``launcher`` starts and finds a running gateway.
"""
