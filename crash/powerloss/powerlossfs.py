"""powerlossfs: a FUSE pass-through file system that simulates power loss.

The backing directory stands for the disk after a power cut: it only ever receives what has been
made durable. File data written but not yet fsynced stays in memory (an Overlay of 4 KiB pages per
file, served to reads over the backing file); fsync/fdatasync writes it through. Metadata changes
(create, mkdir, symlink, link, unlink, rmdir, rename) are applied to the backing directory at once,
because everything else (lookups, readdir, open by name) must see them, but each is recorded in an
undo log until it becomes durable; an unlink or rmdir, and a rename over an existing name, move the
old entry into a hidden trash directory rather than delete it, so it can be put back. A cut undoes
the pending metadata changes newest first, drops every overlay and empties the trash, so the mount
then serves exactly what was durable. See README.md for what is approximated.
"""

import errno
import itertools
import logging
import os
import shutil
import stat
import time

import pyfuse3
import trio

from entries import Create, Remove, Rename
from overlay import PAGE, Overlay

log = logging.getLogger("powerloss")

CONTROL_NAME = b".powerloss"
TRASH_NAME = b".powerloss-trash"
CONTROL_INO = 0xFFFF_FFFF_FFFF_FF00
HIDDEN_IN_ROOT = {CONTROL_NAME, TRASH_NAME}
CACHE_SECONDS = 10

# Metadata durability modes.
# strict:  an entry change is durable once a directory it touches is fsynced (POSIX's letter).
# ordered: any fsync or fdatasync (of a file or a directory) makes every earlier entry change
#          durable, as ext4's single ordered journal does in practice.
MODES = ("strict", "ordered")


def fuse_error(err):
    return pyfuse3.FUSEError(err.errno if isinstance(err, OSError) and err.errno else errno.EIO)


class Node:
    """One inode of the mount. Its location is (parent node, name) so renaming a directory moves
    everything under it without touching the nodes below."""

    _generations = itertools.count(1)

    def __init__(self, ino, parent, name):
        self.ino = ino
        self.parent = parent
        self.name = name
        self.root_path = None
        self.generation = next(Node._generations)
        self.fd = None
        self.opens = 0
        self.overlay = None

    def path(self):
        if self.root_path is not None:
            return self.root_path
        if self.parent is None:
            raise pyfuse3.FUSEError(errno.ESTALE)
        return os.path.join(self.parent.path(), self.name)


class Handle:
    def __init__(self, node, generation, control=False):
        self.node = node
        self.generation = generation
        self.control = control
        self.entries = None


HANDLERS = ("lookup", "forget", "getattr", "setattr", "readlink", "statfs", "open", "create",
            "read", "write", "flush", "fsync", "release", "opendir", "readdir", "releasedir",
            "fsyncdir", "mkdir", "symlink", "link", "unlink", "rmdir", "rename")


def answer_eio_on_bugs(cls):
    """Any exception but FUSEError would end pyfuse3's main loop and leave a dead mount behind;
    log it and fail just that request with EIO instead."""

    def wrap(name, handler):
        async def wrapper(self, *args):
            try:
                return await handler(self, *args)
            except pyfuse3.FUSEError:
                raise
            except Exception:
                log.exception("%s failed", name)
                raise pyfuse3.FUSEError(errno.EIO)
        wrapper.__name__ = name
        return wrapper

    for name in HANDLERS:
        setattr(cls, name, wrap(name, getattr(cls, name)))
    return cls


@answer_eio_on_bugs
class PowerLossFs(pyfuse3.Operations):
    enable_writeback_cache = False

    def __init__(self, backing, mode="strict", sync_backing=True, writeback_s=None):
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        if writeback_s is not None and writeback_s <= 0:
            raise ValueError("writeback_s must be positive")
        self.mode = mode
        self.writeback_s = writeback_s
        self.sync_backing = sync_backing
        self.backing = os.fsencode(os.path.abspath(backing))
        self.root_st_ino = os.lstat(self.backing).st_ino
        self.trash_dir = os.path.join(self.backing, TRASH_NAME)
        os.makedirs(self.trash_dir, mode=0o700, exist_ok=True)
        self._empty_trash()
        root = Node(pyfuse3.ROOT_INODE, None, b"")
        root.root_path = self.backing
        self.trash = Node(0, None, TRASH_NAME)
        self.trash.root_path = self.trash_dir
        self.nodes = {pyfuse3.ROOT_INODE: root}
        self.handles = {}
        self.next_fh = itertools.count(1)
        self.trash_names = itertools.count(1)
        self.pending = []
        self.generation = 0
        self.cuts = 0
        self.undo_skipped = 0

    # ---- inode bookkeeping ------------------------------------------------------------------

    def _ino(self, st_ino):
        # The backing inode number is the FUSE inode number, except that the backing root is
        # FUSE's root (1) and whatever had number 1 takes the root's number instead.
        if st_ino == self.root_st_ino:
            return pyfuse3.ROOT_INODE
        if st_ino == pyfuse3.ROOT_INODE:
            return self.root_st_ino
        return st_ino

    def _node(self, ino):
        node = self.nodes.get(ino)
        if node is None:
            raise pyfuse3.FUSEError(errno.ESTALE)
        return node

    def _place(self, st, parent, name):
        """The node of the entry `name` in `parent` whose lstat is `st`, created or moved there."""
        ino = self._ino(st.st_ino)
        node = self.nodes.get(ino)
        if node is None:
            node = Node(ino, parent, name)
            self.nodes[ino] = node
        elif ino != pyfuse3.ROOT_INODE:
            node.parent, node.name = parent, name
        return node

    def _child(self, parent, name):
        return os.path.join(parent.path(), name)

    def _fd(self, node):
        if node.fd is None:
            node.fd = os.open(node.path(), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        return node.fd

    def _maybe_close(self, node):
        if node.opens == 0 and node.parent is None and node.root_path is None:
            node.overlay = None  # deleted for good and closed: nobody can reach its data again
        if node.opens == 0 and node.overlay is None and node.fd is not None:
            os.close(node.fd)
            node.fd = None

    def _attr(self, node, st=None):
        if st is None:
            st = os.fstat(node.fd) if node.fd is not None else os.lstat(node.path())
        entry = pyfuse3.EntryAttributes()
        entry.st_ino = node.ino
        entry.generation = node.generation
        # Names and attributes only change through the kernel, except in a cut, which
        # invalidates what it changed; caching them saves about 60% of the requests.
        entry.entry_timeout = CACHE_SECONDS
        entry.attr_timeout = CACHE_SECONDS
        entry.st_mode = st.st_mode
        entry.st_nlink = st.st_nlink
        entry.st_uid = st.st_uid
        entry.st_gid = st.st_gid
        entry.st_rdev = st.st_rdev
        entry.st_size = st.st_size
        entry.st_blksize = st.st_blksize
        entry.st_blocks = st.st_blocks
        if node.overlay is not None:
            entry.st_size = node.overlay.size
            entry.st_blocks = max(st.st_blocks, (node.overlay.size + 511) // 512)
        entry.st_atime_ns = st.st_atime_ns
        entry.st_mtime_ns = st.st_mtime_ns
        entry.st_ctime_ns = st.st_ctime_ns
        return entry

    def _control_attr(self):
        entry = pyfuse3.EntryAttributes()
        entry.st_ino = CONTROL_INO
        entry.generation = 1
        entry.entry_timeout = 0
        entry.attr_timeout = 0
        entry.st_mode = stat.S_IFREG | 0o600
        entry.st_nlink = 1
        entry.st_size = 0
        entry.st_blksize = PAGE
        return entry

    def _handle(self, fh):
        handle = self.handles.get(fh)
        if handle is None:
            raise pyfuse3.FUSEError(errno.EBADF)
        # Handles opened before a cut belong to the dead machine: they fail from then on.
        if handle.generation != self.generation:
            raise pyfuse3.FUSEError(errno.EIO)
        return handle

    # ---- durability ----------------------------------------------------------------------------

    def _trash_path(self, trash):
        return os.path.join(self.trash_dir, trash)

    def _to_trash(self, path, node):
        trash = b"%d" % next(self.trash_names)
        os.rename(path, self._trash_path(trash))
        if node is not None:
            node.parent, node.name = self.trash, trash
        return trash

    def _purge(self, trash):
        path = self._trash_path(trash)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
        node = self.nodes.get(self._ino(st.st_ino))
        if node is not None and node.parent is self.trash and node.name == trash:
            node.parent = None
            if node.opens == 0:
                node.overlay = None
                self._maybe_close(node)

    def _durable(self, op):
        if isinstance(op, Remove):
            self._purge(op.trash)
        elif isinstance(op, Rename) and op.replaced is not None:
            self._purge(op.replaced)

    def _commit_dir(self, ino):
        keep = []
        for op in self.pending:
            if self.mode == "ordered" or ino in op.dirs:
                self._durable(op)
            else:
                keep.append(op)
        self.pending = keep

    async def _sync_backing(self, fd):
        if self.sync_backing:
            await trio.to_thread.run_sync(os.fsync, fd)

    async def _make_file_durable(self, node):
        fd = self._fd(node)
        if node.overlay is not None:
            node.overlay.write_through(fd)
            node.overlay = None
        if self.mode == "ordered":
            self._commit_dir(None)
        node.opens += 1  # keeps fd open while the thread syncs it
        try:
            await self._sync_backing(fd)
        finally:
            node.opens -= 1
            self._maybe_close(node)

    def _undo(self, op):
        """Undo one pending entry change. Returns False if the namespace no longer allowed it."""
        if isinstance(op, Create):
            path = self._child(op.parent, op.name)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                return False
            if self._ino(st.st_ino) != op.ino:
                return False
            if stat.S_ISDIR(st.st_mode):
                shutil.rmtree(path)
            else:
                os.unlink(path)
            node = self.nodes.get(op.ino)
            if node is not None and node.parent is op.parent and node.name == op.name:
                node.parent = None
            return True
        if isinstance(op, Remove):
            return self._from_trash(op.trash, op.parent, op.name)
        if isinstance(op, Rename):
            ok = True
            path = self._child(op.new_parent, op.new_name)
            old = self._child(op.old_parent, op.old_name)
            try:
                st = os.lstat(path)
                if self._ino(st.st_ino) == op.ino and not os.path.lexists(old):
                    os.rename(path, old)
                    node = self.nodes.get(op.ino)
                    if node is not None:
                        node.parent, node.name = op.old_parent, op.old_name
                else:
                    ok = False
            except FileNotFoundError:
                ok = False
            if op.replaced is not None:
                ok = self._from_trash(op.replaced, op.new_parent, op.new_name) and ok
            return ok
        raise TypeError(op)

    def _from_trash(self, trash, parent, name):
        source = self._trash_path(trash)
        target = self._child(parent, name)
        if not os.path.lexists(source) or os.path.lexists(target):
            return False
        st = os.lstat(source)
        os.rename(source, target)
        node = self.nodes.get(self._ino(st.st_ino))
        if node is not None:
            node.parent, node.name = parent, name
        return True

    def _empty_trash(self):
        for name in os.listdir(self.trash_dir):
            path = os.path.join(self.trash_dir, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)

    async def cut(self):
        """The power cut: forget everything that was not durable."""
        undone = failed = 0
        names = []
        for op in reversed(self.pending):
            if isinstance(op, Rename):
                names += [(op.old_parent.ino, op.old_name), (op.new_parent.ino, op.new_name)]
            else:
                names.append((op.parent.ino, op.name))
            try:
                if self._undo(op):
                    undone += 1
                else:
                    failed += 1
            except (OSError, pyfuse3.FUSEError) as err:
                log.warning("cut: could not undo %s: %s", type(op).__name__, err)
                failed += 1
        self.pending = []
        dropped = []
        for node in self.nodes.values():
            if node.overlay is not None:
                dropped.append(node.ino)
                node.overlay = None
            self._maybe_close(node)
        self._empty_trash()
        self.generation += 1
        self.cuts += 1
        self.undo_skipped += failed
        log.info("cut %d: %d entry changes undone (%d skipped: their names had moved on), %d files' data dropped",
                 self.cuts, undone, failed, len(dropped))
        # The kernel still caches the names, attributes and pages the cut changed. Invalidating
        # them from a thread lets the event loop serve the requests the kernel may be waiting on
        # meanwhile (it takes the directory's and the pages' locks).
        await trio.to_thread.run_sync(self._invalidate, names, list(self.nodes))

    @staticmethod
    def _invalidate(names, inos):
        for parent, name in names:
            try:
                pyfuse3.invalidate_entry(parent, name)
            except OSError:
                pass  # not in the kernel's cache
        for ino in inos:
            try:
                pyfuse3.invalidate_inode(ino)
            except OSError:
                pass

    async def sync_all(self):
        """Everything pending becomes durable: what `sync` does, or the kernel's writeback after a
        while, or a clean shutdown."""
        for node in list(self.nodes.values()):
            if node.overlay is not None:
                try:
                    await self._make_file_durable(node)
                except (OSError, pyfuse3.FUSEError) as err:
                    log.warning("sync: %s", err)
        for op in self.pending:
            self._durable(op)
        self.pending = []

    async def writeback(self):
        """The kernel's writeback, for a mount that asked for it (--writeback SECONDS; Linux: dirty_expire_centisecs,
        30 s, checked every dirty_writeback_centisecs, 5 s). Every fifth of the expiry (at most 5 s), each file dirty
        for longer than the expiry is written and made durable, as the kernel writes back an inode dirtied that long
        ago: a write not fsynced survives a cut once it is between the expiry and the expiry plus the interval old.
        In ordered mode the pending name changes are committed at every pass too, as ext4 commits its journal every
        5 s. Runs until cancelled."""
        interval = min(5.0, self.writeback_s / 5)
        while True:
            await trio.sleep(interval)
            now = time.monotonic()
            for node in list(self.nodes.values()):
                if node.overlay is not None and now - node.overlay.dirtied_at >= self.writeback_s:
                    try:
                        await self._make_file_durable(node)
                    except (OSError, pyfuse3.FUSEError) as err:
                        log.warning("writeback: %s", err)
            if self.mode == "ordered":
                self._commit_dir(None)

    def status(self):
        files = [n for n in self.nodes.values() if n.overlay is not None]
        return (f"pid {os.getpid()}\n"
                f"mode {self.mode}\n"
                f"pending_bytes {sum(n.overlay.pending_bytes() for n in files)}\n"
                f"pending_files {len(files)}\n"
                f"pending_entries {len(self.pending)}\n"
                f"cuts {self.cuts}\n"
                f"undo_skipped {self.undo_skipped}\n").encode()

    # ---- the FUSE operations -----------------------------------------------------------------

    async def lookup(self, parent_inode, name, ctx=None):
        if parent_inode == pyfuse3.ROOT_INODE and name == CONTROL_NAME:
            return self._control_attr()
        if parent_inode == pyfuse3.ROOT_INODE and name == TRASH_NAME:
            raise pyfuse3.FUSEError(errno.ENOENT)
        parent = self._node(parent_inode)
        if name == b".":
            return self._attr(parent)
        if name == b"..":
            return self._attr(parent.parent or parent)
        try:
            st = os.lstat(self._child(parent, name))
        except OSError as err:
            raise fuse_error(err)
        return self._attr(self._place(st, parent, name), st)

    async def forget(self, inode_list):
        # Nodes are kept (a few hundred bytes each): pending undo records refer to them.
        pass

    async def getattr(self, inode, ctx=None):
        if inode == CONTROL_INO:
            return self._control_attr()
        try:
            return self._attr(self._node(inode))
        except OSError as err:
            raise fuse_error(err)

    async def setattr(self, inode, attr, fields, fh, ctx):
        if inode == CONTROL_INO:
            return self._control_attr()
        node = self._node(inode)
        try:
            path = None if node.fd is not None else node.path()
            if fields.update_size:
                fd = self._fd(node)
                if node.overlay is None:
                    node.overlay = Overlay(os.fstat(fd).st_size)
                node.overlay.truncate(attr.st_size)
            if fields.update_mode:
                if path is None:
                    os.fchmod(node.fd, stat.S_IMODE(attr.st_mode))
                else:
                    os.chmod(path, stat.S_IMODE(attr.st_mode), follow_symlinks=False)
            if fields.update_uid or fields.update_gid:
                uid = attr.st_uid if fields.update_uid else -1
                gid = attr.st_gid if fields.update_gid else -1
                if path is None:
                    os.fchown(node.fd, uid, gid)
                else:
                    os.lchown(path, uid, gid)
            if fields.update_atime or fields.update_mtime:
                st = os.fstat(node.fd) if path is None else os.lstat(path)
                times = (attr.st_atime_ns if fields.update_atime else st.st_atime_ns,
                         attr.st_mtime_ns if fields.update_mtime else st.st_mtime_ns)
                if path is None:
                    os.utime(node.fd, ns=times)
                else:
                    os.utime(path, ns=times, follow_symlinks=False)
            return self._attr(node)
        except OSError as err:
            raise fuse_error(err)

    async def readlink(self, inode, ctx):
        try:
            return os.readlink(self._node(inode).path())
        except OSError as err:
            raise fuse_error(err)

    async def statfs(self, ctx):
        st = os.statvfs(self.backing)
        out = pyfuse3.StatvfsData()
        for field in ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail",
                      "f_files", "f_ffree", "f_favail", "f_namemax"):
            setattr(out, field, getattr(st, field))
        return out

    # ---- files ---------------------------------------------------------------------------------

    def _open_handle(self, node):
        fh = next(self.next_fh)
        self.handles[fh] = Handle(node, self.generation)
        node.opens += 1
        return fh

    async def open(self, inode, flags, ctx):
        if inode == CONTROL_INO:
            fh = next(self.next_fh)
            self.handles[fh] = Handle(None, None, control=True)
            return pyfuse3.FileInfo(fh=fh, direct_io=True)
        node = self._node(inode)
        try:
            fd = self._fd(node)
            if flags & os.O_TRUNC:
                if node.overlay is None:
                    node.overlay = Overlay(os.fstat(fd).st_size)
                node.overlay.truncate(0)
        except OSError as err:
            raise fuse_error(err)
        return pyfuse3.FileInfo(fh=self._open_handle(node))

    async def create(self, parent_inode, name, mode, flags, ctx):
        if parent_inode == pyfuse3.ROOT_INODE and name in HIDDEN_IN_ROOT:
            raise pyfuse3.FUSEError(errno.EACCES)
        parent = self._node(parent_inode)
        path = self._child(parent, name)
        created = True
        try:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                             stat.S_IMODE(mode))
                os.fchown(fd, ctx.uid, ctx.gid)
            except FileExistsError:
                if flags & os.O_EXCL:
                    raise
                created = False
                fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
            st = os.fstat(fd)
        except OSError as err:
            raise fuse_error(err)
        node = self._place(st, parent, name)
        if node.fd is None:
            node.fd = fd
        else:
            os.close(fd)
        if created:
            node.overlay = None
            self.pending.append(Create(parent, name, node.ino))
        elif flags & os.O_TRUNC:
            if node.overlay is None:
                node.overlay = Overlay(st.st_size)
            node.overlay.truncate(0)
        fh = self._open_handle(node)
        return pyfuse3.FileInfo(fh=fh), self._attr(node)

    async def read(self, fh, off, size):
        handle = self.handles.get(fh)
        if handle is not None and handle.control:
            return self.status()[off: off + size]
        handle = self._handle(fh)
        node = handle.node
        try:
            if node.overlay is not None:
                return node.overlay.read(node.fd, off, size)
            return os.pread(node.fd, size, off)
        except OSError as err:
            raise fuse_error(err)

    async def write(self, fh, off, buf):
        handle = self.handles.get(fh)
        if handle is not None and handle.control:
            return await self._command(buf)
        handle = self._handle(fh)
        node = handle.node
        try:
            # No O_SYNC/O_DSYNC case here: the kernel follows every write on such a file with an
            # fsync request, which makes it (and the file's other pending data) durable.
            if node.overlay is None:
                node.overlay = Overlay(os.fstat(node.fd).st_size)
            node.overlay.write(node.fd, off, buf)
            return len(buf)
        except OSError as err:
            raise fuse_error(err)

    async def _command(self, buf):
        words = buf.decode(errors="replace").split()
        if words == ["cut"]:
            await self.cut()
        elif words == ["sync"]:
            await self.sync_all()
        elif words in (["status"], []):
            pass
        else:
            raise pyfuse3.FUSEError(errno.EINVAL)
        return len(buf)

    async def flush(self, fh):
        pass

    async def fsync(self, fh, datasync):
        handle = self.handles.get(fh)
        if handle is not None and handle.control:
            return
        handle = self._handle(fh)
        try:
            await self._make_file_durable(handle.node)
        except OSError as err:
            raise fuse_error(err)

    async def release(self, fh):
        handle = self.handles.pop(fh, None)
        if handle is None or handle.control:
            return
        handle.node.opens -= 1
        self._maybe_close(handle.node)

    # ---- directories and names -----------------------------------------------------------------

    async def opendir(self, inode, ctx):
        node = self._node(inode)
        fh = next(self.next_fh)
        self.handles[fh] = Handle(node, self.generation)
        return fh

    async def readdir(self, fh, start_id, token):
        handle = self._handle(fh)
        node = handle.node
        try:
            if start_id == 0 or handle.entries is None:
                names = sorted(os.listdir(node.path()))
                if node.ino == pyfuse3.ROOT_INODE:
                    names = [n for n in names if n not in HIDDEN_IN_ROOT]
                handle.entries = names
        except OSError as err:
            raise fuse_error(err)
        for index in range(start_id, len(handle.entries)):
            name = handle.entries[index]
            try:
                st = os.lstat(os.path.join(node.path(), name))
            except OSError:
                continue
            # readdirplus: the kernel counts each reported entry as a lookup.
            if not pyfuse3.readdir_reply(token, name, self._attr(self._place(st, node, name), st),
                                         index + 1):
                break

    async def releasedir(self, fh):
        self.handles.pop(fh, None)

    async def fsyncdir(self, fh, datasync):
        handle = self._handle(fh)
        self._commit_dir(handle.node.ino)
        try:
            fd = os.open(handle.node.path(), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                await self._sync_backing(fd)
            finally:
                os.close(fd)
        except OSError as err:
            raise fuse_error(err)

    def _guard(self, parent_inode, name):
        if parent_inode == pyfuse3.ROOT_INODE and name in HIDDEN_IN_ROOT:
            raise pyfuse3.FUSEError(errno.EACCES)

    def _created(self, parent, name, ctx):
        path = self._child(parent, name)
        os.lchown(path, ctx.uid, ctx.gid)
        st = os.lstat(path)
        node = self._place(st, parent, name)
        node.overlay = None
        self.pending.append(Create(parent, name, node.ino))
        return self._attr(node, st)

    async def mkdir(self, parent_inode, name, mode, ctx):
        self._guard(parent_inode, name)
        parent = self._node(parent_inode)
        try:
            os.mkdir(self._child(parent, name), stat.S_IMODE(mode))
            return self._created(parent, name, ctx)
        except OSError as err:
            raise fuse_error(err)

    async def symlink(self, parent_inode, name, target, ctx):
        self._guard(parent_inode, name)
        parent = self._node(parent_inode)
        try:
            os.symlink(target, self._child(parent, name))
            return self._created(parent, name, ctx)
        except OSError as err:
            raise fuse_error(err)

    async def link(self, inode, new_parent_inode, new_name, ctx):
        self._guard(new_parent_inode, new_name)
        node = self._node(inode)
        parent = self._node(new_parent_inode)
        try:
            os.link(node.path(), self._child(parent, new_name), follow_symlinks=False)
            self.pending.append(Create(parent, new_name, node.ino))
            return self._attr(node)
        except OSError as err:
            raise fuse_error(err)

    async def _remove(self, parent_inode, name, directory):
        self._guard(parent_inode, name)
        parent = self._node(parent_inode)
        path = self._child(parent, name)
        try:
            st = os.lstat(path)
            if directory:
                if not stat.S_ISDIR(st.st_mode):
                    raise pyfuse3.FUSEError(errno.ENOTDIR)
                if os.listdir(path):
                    raise pyfuse3.FUSEError(errno.ENOTEMPTY)
            elif stat.S_ISDIR(st.st_mode):
                raise pyfuse3.FUSEError(errno.EISDIR)
            ino = self._ino(st.st_ino)
            node = self.nodes.get(ino)
            if node is not None and not (node.parent is parent and node.name == name):
                node = None  # another hard link of it is the node's name
            trash = self._to_trash(path, node)
            self.pending.append(Remove(parent, name, ino, trash))
        except OSError as err:
            raise fuse_error(err)

    async def unlink(self, parent_inode, name, ctx):
        await self._remove(parent_inode, name, directory=False)

    async def rmdir(self, parent_inode, name, ctx):
        await self._remove(parent_inode, name, directory=True)

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
        self._guard(parent_inode_old, name_old)
        self._guard(parent_inode_new, name_new)
        if flags & pyfuse3.RENAME_EXCHANGE:
            raise pyfuse3.FUSEError(errno.EINVAL)
        old_parent = self._node(parent_inode_old)
        new_parent = self._node(parent_inode_new)
        old = self._child(old_parent, name_old)
        new = self._child(new_parent, name_new)
        try:
            st = os.lstat(old)
            try:
                target = os.lstat(new)
            except FileNotFoundError:
                target = None
            replaced = replaced_ino = None
            if target is not None:
                if flags & pyfuse3.RENAME_NOREPLACE:
                    raise pyfuse3.FUSEError(errno.EEXIST)
                if target.st_ino == st.st_ino:
                    return  # two names of one file: POSIX says do nothing
                if stat.S_ISDIR(st.st_mode) and not stat.S_ISDIR(target.st_mode):
                    raise pyfuse3.FUSEError(errno.ENOTDIR)
                if not stat.S_ISDIR(st.st_mode) and stat.S_ISDIR(target.st_mode):
                    raise pyfuse3.FUSEError(errno.EISDIR)
                if stat.S_ISDIR(target.st_mode) and os.listdir(new):
                    raise pyfuse3.FUSEError(errno.ENOTEMPTY)
                replaced_ino = self._ino(target.st_ino)
                replaced_node = self.nodes.get(replaced_ino)
                if replaced_node is not None and not (
                        replaced_node.parent is new_parent and replaced_node.name == name_new):
                    replaced_node = None
                replaced = self._to_trash(new, replaced_node)
            try:
                os.rename(old, new)
            except OSError:
                if replaced is not None:
                    self._from_trash(replaced, new_parent, name_new)
                raise
            ino = self._ino(st.st_ino)
            node = self.nodes.get(ino)
            if node is not None:
                node.parent, node.name = new_parent, name_new
            self.pending.append(Rename(old_parent, name_old, new_parent, name_new, ino,
                                       replaced, replaced_ino))
        except OSError as err:
            raise fuse_error(err)
