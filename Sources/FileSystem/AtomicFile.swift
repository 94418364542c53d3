// Writing a file the user names (a report, a baseline, an extracted poster) so that a reader,
// or a crash, sees the old content or the new one and never half of it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file whole: the bytes go to a new temporary file in the same folder (so the rename
/// cannot cross file systems), are flushed with `fsync`, and the temporary file is renamed over
/// the target. A failure removes the temporary file and leaves the target as it was.
///
/// Only a regular file is ever replaced: when the path names a symlink, a FIFO, a device or a
/// folder, nothing is written (`--output json=/dev/sda` or a planted symlink must not clobber
/// anything).
package enum AtomicFile {
    /// Replaces (or creates) the file at `path` with `bytes`. Throws when the path is something
    /// other than a regular file, or when the temporary file cannot be written, flushed or renamed;
    /// the error's `path` is `path` as given (the caller escapes it for a terminal).
    package static func write(_ bytes: [UInt8], to path: String) throws(RegularFileError) {
        let file = try Writer(replacing: path)
        try file.write(bytes)
        try file.commit()
    }

    /// A replacement written piece by piece, so that a large report is never held whole: the
    /// pieces go to the temporary file as they come, and `commit` flushes and renames it over
    /// the target. Dropped without `commit` (an error on the way), the temporary file is removed
    /// and the target is as it was.
    package final class Writer {
        /// The path being replaced, as given.
        package let path: String
        private let temporary: String
        private var descriptor: Int32

        /// Creates the temporary file beside `path`; throws when `path` is something other than a
        /// regular file or the folder takes no new file.
        package init(replacing path: String) throws(RegularFileError) {
            if let kind = RegularFile.kindOfEntry(at: path), kind != "a regular file" {
                throw RegularFileError(
                    path: path,
                    reason:
                        "is \(kind); only a regular file is replaced, so nothing was written (remove it or choose another path)"
                )
            }
            self.path = path
            temporary = AtomicFile.temporaryName(for: path)
            // O_EXCL|O_NOFOLLOW: the temporary name is new, never someone else's file or link.
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                let hint =
                    code == EACCES || code == EPERM ? " (check the folder's permissions, or choose another path)" : ""
                throw RegularFileError(
                    path: path, reason: "cannot create a file in its folder: \(RegularFile.reason(code))\(hint)")
            }
        }

        deinit {
            if descriptor >= 0 {
                close(descriptor)
                unlink(temporary)
            }
        }

        /// Appends `bytes` to the temporary file.
        package func write(_ bytes: UnsafeRawBufferPointer) throws(RegularFileError) {
            guard descriptor >= 0 else { throw RegularFileError(path: path, reason: "already written") }
            guard let base = bytes.baseAddress else { return }
            var written = 0
            while written < bytes.count {
                let count = posixWrite(descriptor, base + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw RegularFileError(path: path, reason: "cannot write: \(RegularFile.reason(errno))")
                }
                written += count
            }
        }

        /// Appends `bytes` to the temporary file.
        package func write(_ bytes: [UInt8]) throws(RegularFileError) {
            // `withUnsafeBytes` rethrows untyped errors: the error is carried out by hand.
            let failure = bytes.withUnsafeBytes { buffer -> RegularFileError? in
                do throws(RegularFileError) {
                    try write(buffer)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }

        /// Flushes the temporary file and renames it over the target: from here on a reader sees
        /// the new content whole. Throws (and removes the temporary file) when either fails.
        package func commit() throws(RegularFileError) {
            guard descriptor >= 0 else { throw RegularFileError(path: path, reason: "already written") }
            var failure: String?
            if fsync(descriptor) != 0 { failure = "cannot flush: \(RegularFile.reason(errno))" }
            close(descriptor)
            descriptor = -1
            if failure == nil, rename(temporary, path) != 0 {
                failure = "cannot rename the temporary file over it: \(RegularFile.reason(errno))"
            }
            if let failure {
                unlink(temporary)
                throw RegularFileError(path: path, reason: failure)
            }
        }
    }

    /// `.NAME.hlscheck-RANDOM.tmp` in the folder of `path`: hidden, and unlikely to be anyone's
    /// (O_EXCL refuses it if it is).
    static func temporaryName(for path: String) -> String {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return "\(folder).\(name).hlscheck-\(random).tmp"
    }
}

/// write(2), which `AtomicFile.write` cannot name unqualified (its own name).
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
