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

/// `.hlscheck-embed.lock` in the folder embed writes in: an exclusive flock(2) held for the whole
/// run, so a second `hlscheck embed` on the same stream refuses (or, with `--wait`, waits)
/// instead of silently dropping one of the two results. The file says who holds it; the kernel
/// releases the lock when its holder dies, however it dies. The holder removes the file while
/// still holding the lock, and a run that locked a file someone removed meanwhile starts over.
final class StreamLock {
    static let name = ".hlscheck-embed.lock"

    let folder: Folder
    /// The lock file's name in `folder`: `name`, or for a new `--output` folder the name
    /// beside it (`.out.hlscheck-embed.lock`, see StreamWriter).
    let fileName: String
    private let descriptor: Int32
    private var released = false

    private init(folder: Folder, fileName: String, descriptor: Int32) {
        self.folder = folder
        self.fileName = fileName
        self.descriptor = descriptor
    }

    deinit { release() }

    static func acquire(
        in folder: Folder, named name: String = StreamLock.name, wait: Bool, report: @Sendable (String) -> Void
    ) throws(EmbedError) -> StreamLock {
        let path = PathString.join(folder.path, name)
        var announced = false
        while true {
            let descriptor = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw EmbedError(
                    "\(path): cannot create the lock file: \(lastError()) (embed needs to write in \(folder.path))")
            }
            if hls_lock_exclusive(descriptor, 0) != 0 {
                let holder = Self.holder(descriptor)
                guard wait else {
                    close(descriptor)
                    throw EmbedError(
                        "\(path): another hlscheck embed (\(holder)) is rewriting this stream; nothing was changed — run again when it has finished, or add --wait"
                    )
                }
                if !announced {
                    report("waiting for \(path), held by \(holder)")
                    announced = true
                }
                guard hls_lock_exclusive(descriptor, 1) == 0 else {
                    let reason = lastError()
                    close(descriptor)
                    throw EmbedError("\(path): cannot wait for the lock: \(reason)")
                }
            }
            // The holder before us may have removed the file we locked: then lock the new one.
            var locked = stat(), current = stat()
            guard fstat(descriptor, &locked) == 0, fstatat(folder.descriptor, name, &current, AT_SYMLINK_NOFOLLOW) == 0,
                locked.st_dev == current.st_dev, locked.st_ino == current.st_ino
            else {
                close(descriptor)
                continue
            }
            let identity = "pid \(getpid()) on \(Self.hostName()), since \(Self.utcNow())\n"
            ftruncate(descriptor, 0)
            _ = Array(identity.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            return StreamLock(folder: folder, fileName: name, descriptor: descriptor)
        }
    }

    /// This machine's name, as gethostname(2) gives it (ProcessInfo.hostName may resolve it
    /// through the network, which the lock cannot wait for).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "an unknown host" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Now, in UTC, as ISO 8601 (`2026-11-22T21:30:02Z`), without loading time-zone data
    /// (ISO8601DateFormatter's first use cost more than the rest of taking the lock).
    static func utcNow() -> String {
        var now = time(nil)
        var parts = tm()
        guard gmtime_r(&now, &parts) != nil else { return "an unknown time" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Removes the lock file, then lets go (in this order, see the type's comment).
    func release() {
        guard !released else { return }
        released = true
        unlinkat(folder.descriptor, fileName, 0)
        close(descriptor)
    }

    /// What the holder wrote into the file. It writes right after locking, so a file still empty
    /// is read again for a moment before giving up.
    private static func holder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        for _ in 0..<20 {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhiteSpace() : ""
            if !text.isEmpty { return text }
            usleep(5_000)
        }
        return "which has not said who it is yet"
    }
}
