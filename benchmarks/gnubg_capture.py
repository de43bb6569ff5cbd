"""Text for the scripts the benchmarks run inside GNU Backgammon (``gnubg -t -p script.py``).

gnubg's commands print at the C level, on file descriptor 1, not through Python's ``sys.stdout``;
``capture(command)`` reads that output through a pipe. A script's template takes it as
``%(capture)s``.
"""

CAPTURE = r'''
def capture(command):
    """What gnubg prints (at C level, on fd 1) for command."""
    sys.stdout.flush()
    read, write = os.pipe()
    saved = os.dup(1)
    os.dup2(write, 1)
    try:
        gnubg.command(command)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(write)
        os.close(saved)
    chunks = []
    while True:
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    return b"".join(chunks).decode("utf-8", "replace")
'''
