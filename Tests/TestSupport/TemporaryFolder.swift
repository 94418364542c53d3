public import Foundation

/// Real files in a fresh folder under the system temporary directory, removed when the value dies.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("hlscheck-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try write(Data(text.utf8), to: name)
        }
    }

    public func write(_ data: Data, to name: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The package's root folder, found from this source file's path.
public enum PackageRoot {
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` beside the package, or `$HLSCHECK_CORPUS`; nil when neither exists
    /// (as on a user's machine), so corpus tests skip cleanly.
    public static var corpus: URL? {
        let candidates = [
            ProcessInfo.processInfo.environment["HLSCHECK_CORPUS"].map { URL(fileURLWithPath: $0) },
            url.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
        ]
        return candidates.compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.json").path)
        }
    }

    /// `../shared/schemas`, nil when absent.
    public static var schemas: URL? {
        let folder = url.deletingLastPathComponent().appendingPathComponent("shared/schemas")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }
}

/// Every file under a folder with its bytes, by path relative to the folder.
public func snapshot(_ folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
        var isDirectory: ObjCBool = false
        let full = (folder as NSString).appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
    }
    return files
}
