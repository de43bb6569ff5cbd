"""The numba plumbing: where kernels are cached, the precompiled kernels shipped in the package
and the command that rebuilds them (``python -m gammon.compiled.precompile``)."""
