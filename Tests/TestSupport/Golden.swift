import Foundation
public import Testing

/// Output compared with a committed file. A difference fails the test with `diff -u` of the two,
/// so the failure shows what changed rather than two walls of text; `HLSCHECK_UPDATE_GOLDEN=1`
/// rewrites the file instead (review the diff before committing it).
public enum Golden {
    /// Expects `actual` to equal the file at `path`, relative to the package root.
    public static func expect(
        _ actual: String, matches path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let url = PackageRoot.url.appendingPathComponent(path)
        if ProcessInfo.processInfo.environment["HLSCHECK_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard expected != actual else { return }
        Issue.record(
            "\(path) differs from the output (HLSCHECK_UPDATE_GOLDEN=1 rewrites it):\n\(try difference(url, actual))",
            sourceLocation: sourceLocation)
    }

    /// `diff -u` of the committed file and `actual`.
    static func difference(_ committed: URL, _ actual: String) throws -> String {
        let folder = try TemporaryFolder(["output": actual])
        return try ChildProcess.capture([
            "diff", "-u", "--label", "committed", "--label", "output", committed.path, folder.path("output"),
        ]).stdout
    }
}
