import Foundation

/// Writes a file so that a reader (or a crash) sees either the old content or the new one, never
/// half of it: a temporary file in the same folder, flushed, then renamed over the target.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).hlscheck-\(UUID().uuidString).tmp")
        do {
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                throw CheckError("cannot rename \(temporary.path) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
