"""The error a user can cause: bad input, an unsupported op, a bad flag.

Tools print it as one `error:` line and exit 1; the Python API raises it as is.
Anything else that escapes is a bug in mlc and is reported as an internal error.
"""


class UserError(Exception):
    """A problem with the user's input. `location` is "file:line:col" when known."""

    def __init__(self, message: str, location: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message
