// Reading files that a playlist or a user names, safely: regular files only, opened so that a
// FIFO, a device or a socket can neither block the checker nor feed it endless bytes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file was not read, or not written: the path and a reason a user can act on.
package struct RegularFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    package var path: String
    /// Why it was not read or written (the operating system's reason, or the refusal).
    package var reason: String

    /// Makes an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    package var description: String { "\(path): \(reason)" }
}

/// An open regular file. `open` refuses anything else *before* a byte is read; the descriptor
/// is closed when the value dies. Sendable: every property is a constant, and positioned reads
/// (`pread`) from several threads do not disturb each other.
package final class RegularFile: Sendable {
    /// The path as given to `init`.
    package let path: String
    /// File size at open time.
    package let size: Int
    /// Device and inode: the same for every name of one file (hard links, symlinks, `..`).
    package let identity: FileIdentity
    private let descriptor: Int32

    /// Opens `path` for reading without blocking (a FIFO with no writer would otherwise block in
    /// `open`), checks with `fstat` on the open descriptor that it is a regular file, then
    /// switches back to blocking reads. `followSymlinks: false` refuses a symlink as the last
    /// component (O_NOFOLLOW).
    package init(path: String, followSymlinks: Bool = true) throws(RegularFileError) {
        self.path = path
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        if !followSymlinks { flags |= O_NOFOLLOW }
        let fd = open(path, flags)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP, !followSymlinks {
                // Callers pass the real path when there is one: a link here leads nowhere, or was
                // swapped in after realpath(3) looked.
                throw RegularFileError(path: path, reason: Self.unfollowedLinkReason(path))
            }
            throw RegularFileError(path: path, reason: Self.openFailure(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw RegularFileError(path: path, reason: "cannot stat: \(Self.reason(code))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw RegularFileError(
                path: path, reason: "is \(Self.kindName(kind)), not a regular file; only regular files are read")
        }
        let current = fcntl(fd, F_GETFL)
        if current >= 0 { _ = fcntl(fd, F_SETFL, current & ~O_NONBLOCK) }
        descriptor = fd
        size = Int(info.st_size)
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    deinit {
        close(descriptor)
    }

    /// The whole file, refusing more than `maximumBytes` (checked against the size before
    /// reading and again while reading, as a file may grow). `limitHint` names the setting that
    /// raises the limit, for the message.
    package func readAll(maximumBytes: Int, limitHint: String) throws(RegularFileError) -> [UInt8] {
        guard size <= maximumBytes else {
            throw RegularFileError(path: path, reason: Self.tooLarge(size, maximumBytes, limitHint))
        }
        var result: [UInt8] = []
        result.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RegularFileError(path: path, reason: "read failed: \(Self.reason(errno))")
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > maximumBytes {
                throw RegularFileError(path: path, reason: Self.tooLarge(result.count, maximumBytes, limitHint))
            }
        }
        return result
    }

    /// One positioned read (`pread`): bytes read, 0 at the end, -1 with `errno` set on failure.
    package func positionedRead(into destination: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        posixPread(descriptor, destination, count, offset)
    }

    /// `length` bytes at `offset`, with positioned reads; the caller has bounded `length`.
    package func read(offset: Int, length: Int) throws(RegularFileError) -> [UInt8] {
        // Not zeroed first: the reads fill every byte that is kept (zeroing touched each page
        // once more, for nothing).
        var failure: RegularFileError?
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var filled = 0
            while filled < length, let base = buffer.baseAddress {
                let count = pread(descriptor, base + filled, length - filled, off_t(offset + filled))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = RegularFileError(path: path, reason: "read failed: \(Self.reason(errno))")
                    break
                }
                if count == 0 {
                    failure = RegularFileError(path: path, reason: "file shrank while reading")
                    break
                }
                filled += count
            }
            initialized = filled
        }
        if let failure { throw failure }
        return bytes
    }

    /// "12 345 678 bytes, over the limit of 16 777 216 bytes (raise it with --max-playlist-bytes)".
    package static func tooLarge(_ size: Int, _ limit: Int, _ hint: String) -> String {
        "\(size) bytes, over the limit of \(limit) bytes (raise it with \(hint))"
    }

    /// Why `open` failed, with what to do where the text alone does not say it.
    static func openFailure(_ code: Int32) -> String {
        guard code == EACCES || code == EPERM else { return reason(code) }
        return
            "\(reason(code)) (hlscheck runs as user id \(getuid()), which may not read it or open a folder on its way: check their permissions)"
    }

    /// The operating system's text for `errno` value `code`.
    package static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Why the symbolic link `path` was not read: where it leads, when that is nowhere.
    static func unfollowedLinkReason(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) != 0 else { return "is a symbolic link; not followed" }
        let code = errno
        let target = readLinkTarget(path).map { " (\($0))" } ?? ""
        switch code {
        case ENOENT:
            return "is a symbolic link to a file that does not exist\(target); restore the file or fix the link"
        case ELOOP: return "is a symbolic link in a loop of links\(target); fix the link"
        default: return "is a symbolic link whose target cannot be reached\(target): \(reason(code))"
        }
    }

    private static func readLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// What is at `path` without following a final symlink, or nil when nothing is there.
    /// For refusing to write over something that is not a regular file.
    package static func kindOfEntry(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFREG ? "a regular file" : kindName(kind)
    }

    /// The canonical absolute path (symlinks and `..` resolved), nil when `path` does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Device and inode of an open file.
package struct FileIdentity: Sendable, Hashable {
    /// st_dev.
    package var device: UInt64
    /// st_ino.
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file `path` names, symlinks followed; nil when nothing is there.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// `read(2)`, named apart from methods called `read`.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func posixPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
    pread(fd, buffer, count, off_t(offset))
}
