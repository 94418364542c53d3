import Foundation

/// Streams made at test time by Tests/Scripts/verdict-fixtures.sh (ffmpeg CLI), one folder per
/// measurement case of docs/measurement.md.
public enum VerdictFixtures {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A fresh folder holding the case `name` (its `master.m3u8` at the top).
    public static func make(_ name: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        do {
            try ChildProcess.run([
                "sh", PackageRoot.url.appendingPathComponent("Tests/Scripts/verdict-fixtures.sh").path, folder.url.path,
                name,
            ])
        } catch {
            throw Failure(description: "verdict-fixtures.sh \(name): \(error)")
        }
        return folder
    }

    public static func multivariant(_ folder: TemporaryFolder, _ name: String) -> String {
        folder.path("\(name)/master.m3u8")
    }
}
