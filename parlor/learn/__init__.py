"""Learning Parlor Magic: lessons as data (:mod:`parlor.learn.lessons`), the coach's lines
and the "why not?" of a card. Uses only :mod:`parlor.rules`' public API."""
