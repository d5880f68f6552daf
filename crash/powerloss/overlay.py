"""The data of one file that is not durable yet, for powerlossfs."""

import os
import time

PAGE = 4096


class Overlay:
    """The data of one file that is not durable yet.

    size is the file's size as the program sees it; floor is the lowest size a pending truncate
    cut the file to: backing bytes at or beyond it are gone and read as zeros. Dirty pages hold the
    full current content of their 4 KiB; their bytes past size are kept zero.
    """

    def __init__(self, backing_size):
        # When the file became dirty (it has no overlay while it is clean): what the kernel's writeback goes by.
        self.dirtied_at = time.monotonic()
        self.durable_size = backing_size
        self.size = backing_size
        self.floor = backing_size
        self.pages = {}

    def _backing(self, fd, off, length):
        """Backing bytes [off, off+length) as the overlay sees them (zeros past floor and EOF)."""
        data = os.pread(fd, length, off) if off < self.floor else b""
        if off + len(data) > self.floor:
            data = data[: max(0, self.floor - off)]
        if len(data) < length:
            data += bytes(length - len(data))
        return data

    def read(self, fd, off, length):
        length = min(length, self.size - off)
        if length <= 0:
            return b""
        out = bytearray()
        pos, end = off, off + length
        while pos < end:
            index = pos // PAGE
            page_end = min(end, (index + 1) * PAGE)
            page = self.pages.get(index)
            if page is not None:
                out += page[pos - index * PAGE: page_end - index * PAGE]
                pos = page_end
                continue
            # A run of clean pages is one pread.
            run_end = page_end
            while run_end < end and (run_end // PAGE) not in self.pages:
                run_end = min(end, run_end + PAGE)
            out += self._backing(fd, pos, run_end - pos)
            pos = run_end
        return bytes(out)

    def write(self, fd, off, data):
        pos, end, view = off, off + len(data), memoryview(data)
        while pos < end:
            index = pos // PAGE
            start = index * PAGE
            page_end = min(end, start + PAGE)
            page = self.pages.get(index)
            if page is None:
                if pos == start and page_end == start + PAGE:
                    page = bytearray(PAGE)
                else:
                    # Backing bytes past size are past floor too (only a truncate makes size
                    # smaller than the backing file), so this reads them as zeros.
                    page = bytearray(self._backing(fd, start, PAGE))
                self.pages[index] = page
            page[pos - start: page_end - start] = view[pos - off: page_end - off]
            pos = page_end
        self.size = max(self.size, end)

    def truncate(self, size):
        if size < self.size:
            self.floor = min(self.floor, size)
            for index in [i for i in self.pages if i * PAGE >= size]:
                del self.pages[index]
            page = self.pages.get(size // PAGE)
            if page is not None:
                keep = size % PAGE
                page[keep:] = bytes(PAGE - keep)
        self.size = size

    def write_through(self, fd):
        """Apply the overlay to the backing file (the caller fsyncs it)."""
        if self.floor < os.fstat(fd).st_size:
            os.ftruncate(fd, self.floor)
        for index in sorted(self.pages):
            start = index * PAGE
            length = min(PAGE, self.size - start)
            if length > 0:
                os.pwrite(fd, self.pages[index][:length], start)
        if os.fstat(fd).st_size != self.size:
            os.ftruncate(fd, self.size)

    def pending_bytes(self):
        """Bytes a cut would lose: dirty page bytes within the file, plus a pending shrink."""
        dirty = sum(max(0, min(PAGE, self.size - index * PAGE)) for index in self.pages)
        return dirty + max(0, self.durable_size - max(self.floor, self.size))
