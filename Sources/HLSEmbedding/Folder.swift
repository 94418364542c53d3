import CHLSSystem
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats

/// One open folder. Every operation is relative to its descriptor and never follows a symbolic
/// link in the last component, so a name swapped for a link after we looked at it cannot
/// redirect a write; files are only ever created new (O_EXCL) and renamed into place — embed
/// never opens an existing file for writing.
final class Folder {
    let descriptor: Int32
    /// For messages only.
    let path: String
    /// Permission bits that a file created here with them (``createNew(_:bytes:like:progress:)``)
    /// was found to have: no umask bit or default ACL of this folder takes any of them away.
    private var createsExactly: Set<mode_t> = []

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens `path` (an absolute, resolved path: the links above it are the user's layout).
    static func open(_ path: String) throws(EmbedError) -> Folder {
        let descriptor = systemOpenFolder(path)
        guard descriptor >= 0 else { throw EmbedError("\(path): cannot open the folder: \(lastError())") }
        return Folder(descriptor: descriptor, path: path)
    }

    /// The subfolder `name`, created when missing if `create`. With `followLinks == false` a
    /// symbolic link there is refused, so nothing is ever written through it.
    func subfolder(_ name: String, create: Bool, followLinks: Bool) throws(EmbedError) -> Folder {
        let full = PathString.join(path, name)
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        var descriptor = openat(self.descriptor, name, flags)
        if descriptor < 0, errno == ENOENT, create {
            guard mkdirat(self.descriptor, name, 0o777) == 0 || errno == EEXIST else {
                throw EmbedError("\(full): cannot create the folder: \(lastError())")
            }
            descriptor = openat(self.descriptor, name, flags)
        }
        guard descriptor >= 0 else {
            if errno == ELOOP || (errno == ENOTDIR && status(name).map(Self.isLink) == true) {
                throw EmbedError(
                    "\(full) is a symbolic link: embed does not write through links; remove it or choose another --output folder"
                )
            }
            if errno == ENOTDIR {
                throw EmbedError("\(full) exists and is not a folder; remove it or choose another --output folder")
            }
            throw EmbedError("\(full): cannot open the folder: \(lastError())")
        }
        return Folder(descriptor: descriptor, path: full)
    }

    /// lstat of `name` (stat with `followLinks`), nil when it does not exist.
    func status(_ name: String, followLinks: Bool = false) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    static func isRegular(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }
    static func isLink(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFLNK }

    /// The status of `name` (links followed), and whether it holds exactly `bytes`: read only when
    /// the size matches, the only case where the bytes may be the same.
    func status(_ name: String, holding bytes: [UInt8]) throws(EmbedError) -> (status: stat?, holdsBytes: Bool) {
        guard let status = self.status(name, followLinks: true) else { return (nil, false) }
        guard Int(status.st_size) == bytes.count else { return (status, false) }
        return (status, try read(name, followLinks: true) == bytes)
    }

    /// The bytes of the regular file `name`; nil when it does not exist. A non-regular file is
    /// refused, and so is a link unless `followLinks` (reading the input through its links is
    /// the user's layout; what embed is about to replace must be the file itself).
    func read(_ name: String, followLinks: Bool = false) throws(EmbedError) -> [UInt8]? {
        let full = PathString.join(path, name)
        let descriptor = openat(
            self.descriptor, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw EmbedError("\(full): cannot read it: \(errno == ELOOP ? "it is a symbolic link" : lastError())")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Self.isRegular(info) else {
            throw EmbedError("\(full) is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw EmbedError("\(full): cannot read it: \(lastError())") }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// Names in the folder (without "." and "..").
    func entries() -> [String] {
        let duplicate = dup(descriptor)
        guard duplicate >= 0, let stream = fdopendir(duplicate) else { return [] }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `bytes` to a new temporary file (O_EXCL, never a link), with the permission bits
    /// (and, when `owner`, the owner and group) of `like`, flushed to disk — unless `flush` is
    /// false, when the caller flushes it (``flushAll(_:)``) before giving it a name. Returns its name.
    func temporary(
        for name: String, run: String, bytes: ArraySlice<UInt8>, like: stat?, owner: Bool, flush: Bool = true,
        progress: WriteProgress
    ) throws(EmbedError) -> String {
        let temporary = TemporaryName.make(for: name, run: run)
        let full = PathString.join(path, name)
        try progress.step()
        let descriptor = openat(self.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EmbedError("\(full): cannot create a temporary file beside it: \(lastError())")
        }
        var failure: EmbedError?
        if let like {
            if owner, fchown(descriptor, like.st_uid, like.st_gid) != 0, errno != EPERM {
                failure = EmbedError("\(full): cannot keep its owner: \(lastError())")
            }
            // After fchown, which may clear set-user-ID bits.
            if failure == nil, fchmod(descriptor, like.st_mode & 0o7777) != 0 {
                failure = EmbedError("\(full): cannot keep its permissions: \(lastError())")
            }
        } else if fchmod(descriptor, 0o644) != 0 {
            failure = EmbedError("\(full): cannot set its permissions: \(lastError())")
        }
        if failure == nil { failure = Self.writeAll(bytes, to: descriptor, named: full, progress: progress) }
        if failure == nil, flush, fsync(descriptor) != 0 {
            failure = EmbedError("\(full): cannot flush it to disk: \(lastError())")
        }
        close(descriptor)
        if let failure {
            unlinkat(self.descriptor, temporary, 0)
            throw failure
        }
        return temporary
    }

    /// Writes `bytes` to `descriptor` in `WriteProgress.chunk`s, a write step each (when nothing
    /// watches the steps, all at once, the steps counted alike); the failure (naming `full`), or nil.
    private static func writeAll(
        _ bytes: ArraySlice<UInt8>, to descriptor: Int32, named full: String, progress: WriteProgress
    ) -> EmbedError? {
        var offset = bytes.startIndex
        if !progress.isWatched {
            for _ in 0..<((bytes.count + WriteProgress.chunk - 1) / WriteProgress.chunk) {
                do { try progress.step() } catch { return error }
            }
        }
        while offset < bytes.endIndex {
            let end = progress.isWatched ? min(offset + WriteProgress.chunk, bytes.endIndex) : bytes.endIndex
            if progress.isWatched { do { try progress.step() } catch { return error } }
            let written = bytes[offset..<end].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return EmbedError("\(full): cannot write: \(lastError())") }
            offset += written
        }
        return nil
    }

    /// Creates `name` with `bytes`, with the permission bits of `like` (0644 without), not
    /// flushed: only for a folder nobody can see yet (the staging folder of a new `--output`,
    /// renamed into place after one flush of everything). False when `name` exists already.
    func createNew(_ name: String, bytes: ArraySlice<UInt8>, like: stat?, progress: WriteProgress) throws(EmbedError)
        -> Bool
    {
        let full = PathString.join(path, name)
        let mode = like.map { $0.st_mode & 0o7777 } ?? 0o644
        try progress.step()
        // Created with its permission bits: the umask (or the folder's default ACL) only takes
        // bits away, and takes the same ones from every file created here with the same bits —
        // so the first such file's fstat tells whether an fchmod is needed, for all of them
        // (it rarely is; an fchmod dirties the new inode once more).
        let descriptor = openat(
            self.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0o777)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw EmbedError("\(full): cannot create it: \(lastError())")
        }
        var failure: EmbedError?
        if !createsExactly.contains(mode) {
            var created = stat()
            if fstat(descriptor, &created) == 0, created.st_mode & 0o7777 == mode {
                createsExactly.insert(mode)
            } else if fchmod(descriptor, mode) != 0 {
                failure = EmbedError("\(full): cannot set its permissions: \(lastError())")
            }
        }
        if failure == nil { failure = Self.writeAll(bytes, to: descriptor, named: full, progress: progress) }
        close(descriptor)
        if let failure {
            unlinkat(self.descriptor, name, 0)
            throw failure
        }
        return true
    }

    /// `name` becomes a hard link to `source` (a copy when the filesystems differ or the link is
    /// not allowed), not flushed: like ``createNew(_:bytes:like:progress:)``, only for a folder
    /// nobody can see yet. False when `name` exists already.
    func linkNew(_ name: String, to source: Folder, _ sourceName: String, progress: WriteProgress) throws(EmbedError)
        -> Bool
    {
        try progress.step()
        if linkat(source.descriptor, sourceName, descriptor, name, AT_SYMLINK_FOLLOW) == 0 { return true }
        if errno == EEXIST { return false }
        let bytes = try source.read(sourceName, followLinks: true) ?? []
        return try createNew(
            name, bytes: bytes[...], like: source.status(sourceName, followLinks: true), progress: progress)
    }

    /// Removes the folder `name` and everything in it, never following a link (a link inside is
    /// removed, not what it points at). Returns how many files it removed.
    @discardableResult
    func removeTree(_ name: String, progress: WriteProgress) -> Int {
        var removed = 0
        if let inner = try? subfolder(name, create: false, followLinks: false) {
            for entry in inner.entries() {
                guard let info = inner.status(entry) else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    removed += inner.removeTree(entry, progress: progress)
                } else if unlinkat(inner.descriptor, entry, 0) == 0 {
                    removed += 1
                }
            }
        }
        unlinkat(descriptor, name, AT_REMOVEDIR)
        return removed
    }

    /// Atomically puts `temporary` in place of `name` (replacing it when present).
    func replace(_ name: String, with temporary: String, progress: WriteProgress) throws(EmbedError) {
        try progress.step()
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let reason = lastError()
            unlinkat(descriptor, temporary, 0)
            throw EmbedError("\(PathString.join(path, name)): cannot replace it: \(reason)")
        }
    }

    /// Puts `temporary` in place as `name` only when no `name` exists; false when one does (the
    /// temporary then stays, for the caller to compare and remove).
    func createExclusively(_ name: String, with temporary: String, progress: WriteProgress) throws(EmbedError) -> Bool {
        try progress.step()
        guard hls_rename_noreplace(descriptor, temporary, descriptor, name) == 0 else {
            let code = errno
            let reason = lastError()
            if code == EEXIST { return false }
            unlinkat(descriptor, temporary, 0)
            throw EmbedError("\(PathString.join(path, name)): cannot create it: \(reason)")
        }
        return true
    }

    /// `name` becomes a hard link to `source` (a copy when the filesystems differ), atomically.
    func link(_ name: String, to source: Folder, _ sourceName: String, run: String, progress: WriteProgress)
        throws(EmbedError)
    {
        let temporary = TemporaryName.make(for: name, run: run)
        try progress.step()
        if linkat(source.descriptor, sourceName, descriptor, temporary, AT_SYMLINK_FOLLOW) != 0 {
            let bytes = try source.read(sourceName, followLinks: true) ?? []
            let copy = try self.temporary(
                for: name, run: run, bytes: bytes[...], like: source.status(sourceName, followLinks: true),
                owner: false, progress: progress)
            try replace(name, with: copy, progress: progress)
            return
        }
        try replace(name, with: temporary, progress: progress)
    }

    /// Removes the regular file `name`; links, folders and missing names are left alone.
    @discardableResult
    func removeFile(_ name: String, progress: WriteProgress) throws(EmbedError) -> Bool {
        guard let info = status(name), Self.isRegular(info) else { return false }
        try progress.step()
        return unlinkat(descriptor, name, 0) == 0
    }

    /// Flushes the temporary files `names` of this folder to disk: one syncfs(2) for the whole
    /// filesystem where there is one (hundreds of small segments cost one flush, not one each),
    /// else an fsync per file.
    func flushAll(_ names: [String]) throws(EmbedError) {
        guard !names.isEmpty else { return }
        if hls_sync_filesystem(descriptor) == 0 { return }
        for name in names {
            let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard file >= 0 else {
                throw EmbedError("\(PathString.join(path, name)): cannot open it to flush it: \(lastError())")
            }
            defer { close(file) }
            guard fsync(file) == 0 else {
                throw EmbedError("\(PathString.join(path, name)): cannot flush it to disk: \(lastError())")
            }
        }
    }

    /// Makes the renames in this folder durable.
    func sync() {
        fsync(descriptor)
    }
}

/// `.seg0.ts.hlscheck-embed-<run>.tmp`: hidden, recognisable, and owned by one run.
enum TemporaryName {
    static func make(for name: String, run: String) -> String {
        ".\(name).hlscheck-embed-\(run).tmp"
    }

    static func belongs(_ name: String, to run: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".hlscheck-embed-\(run).tmp")
    }
}

/// Counts the steps of writing (each chunk written, each rename, link or removal) so that tests
/// can stop the process at any of them.
final class WriteProgress {
    static let chunk = 4096
    private(set) var steps = 0
    private let hook: (@Sendable (Int) -> Void)?

    init(hook: (@Sendable (Int) -> Void)?) {
        self.hook = hook
    }

    /// Whether a hook sees each step (tests stop the process at one): a write then goes in
    /// chunks, a step each; else at once, its steps counted all the same.
    var isWatched: Bool { hook != nil }

    func step() throws(EmbedError) {
        steps += 1
        hook?(steps)
    }
}

func lastError() -> String {
    String(cString: strerror(errno))
}

// The C calls whose names the types above reuse (Folder.open, Folder.read, EmbedJournal.write),
// reached from file scope where the names are unambiguous, on Glibc and Darwin alike.
func systemOpenFolder(_ path: String) -> Int32 { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
