"""The HTTP routes of :mod:`parlor.web`, one APIRouter per concern, assembled by
:func:`parlor.web.app.create_app`; what they share is :class:`parlor.web.routes.site.Site`."""
