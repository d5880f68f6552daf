"""The undo log's records: one entry change (a name created, removed or renamed) not yet durable.

dirs holds the directories whose fsync makes the change durable (under the strict mode).
"""


class Create:
    """A new name (create, mkdir, symlink, link). Undo: remove it, if it is still that inode."""

    def __init__(self, parent, name, ino):
        self.parent, self.name, self.ino = parent, name, ino
        self.dirs = {parent.ino}


class Remove:
    """An unlink or rmdir: the entry waits in the trash. Undo: put it back."""

    def __init__(self, parent, name, ino, trash):
        self.parent, self.name, self.ino, self.trash = parent, name, ino, trash
        self.dirs = {parent.ino}


class Rename:
    """A rename, perhaps over an existing entry (then kept in the trash). Undo: move it back."""

    def __init__(self, old_parent, old_name, new_parent, new_name, ino, replaced, replaced_ino):
        self.old_parent, self.old_name = old_parent, old_name
        self.new_parent, self.new_name = new_parent, new_name
        self.ino, self.replaced, self.replaced_ino = ino, replaced, replaced_ino
        self.dirs = {old_parent.ino, new_parent.ino}
