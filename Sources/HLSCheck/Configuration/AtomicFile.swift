import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import MediaFormats
import FileSystem

/// Writes a file so that a reader (or a crash) sees either the old content or the new one, never
/// half of it: a temporary file in the same folder, flushed, then renamed over the target.
///
/// Only a regular file is ever replaced: when the path names a symlink, a FIFO, a device or a
/// folder, nothing is written (`--output json=/dev/sda` or a planted symlink must not clobber
/// anything).
package enum AtomicFile {
    /// Replaces (or creates) the file at `path` with `bytes`. Throws `CheckError` when the path is
    /// something other than a regular file, or when the temporary file cannot be written or renamed.
    package static func write(_ bytes: [UInt8], to path: String) throws(CheckError) {
        if let kind = RegularFile.kindOfEntry(at: path), kind != "a regular file" {
            throw CheckError(
                "\(TerminalText.escaped(path)) is \(kind); only a regular file is replaced, so nothing was written (remove it or choose another path)"
            )
        }
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).hlscheck-\(UUID().uuidString).tmp").path
        // O_EXCL|O_NOFOLLOW: the temporary name is new, never someone else's file or link.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CheckError(
                "cannot create a file in the folder of \(TerminalText.escaped(path)): \(RegularFile.reason(errno))")
        }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(descriptor, base + written, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "cannot write: \(RegularFile.reason(errno))"
                break
            }
            written += count
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot flush: \(RegularFile.reason(errno))" }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 {
            failure = "cannot rename the temporary file over it: \(RegularFile.reason(errno))"
        }
        if let failure {
            unlink(temporary)
            throw CheckError("\(TerminalText.escaped(path)): \(failure)")
        }
    }
}

/// write(2), which `AtomicFile.write` cannot name unqualified (its own name).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
