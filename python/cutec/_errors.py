"""The exceptions cutec raises."""


class CompileError(Exception):
    """A kernel did not compile. The message is exactly what the ``cutec``
    command prints: ``file:line:col: error: ...``, the source line, a caret
    under the construct at fault, and notes."""

    def __init__(self, diagnostics: str):
        super().__init__(diagnostics.rstrip("\n"))
        self.diagnostics = diagnostics


class EmulationError(Exception):
    """The emulator stopped a kernel: an access out of bounds, a deadlock, a
    data race (``race_check=True``), a schedule whose result differs, or a
    misused instruction. ``report`` holds the emulator's text, which names
    the kernel, the CTA, the thread and the instruction."""

    def __init__(self, report: str):
        super().__init__(report.rstrip("\n"))
        self.report = report
