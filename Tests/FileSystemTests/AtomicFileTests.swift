import FileSystem
import Foundation
import Testing
import TestSupport

/// Reports, baselines and extracted posters are written whole or not at all, and never through
/// something that is not a regular file.
@Suite("Atomic file writes")
struct AtomicFileTests {
    /// The temporary files a write left in `folder` (none, when it finished or cleaned up).
    static func leftovers(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
    }

    @Test func createsAFileAndReplacesOneWithoutLeavingATemporaryFile() throws {
        let folder = try TemporaryFolder(["report.json": "old report, longer than the new one"])
        try AtomicFile.write(Array("new".utf8), to: folder.path("report.json"))
        try AtomicFile.write([0xFF, 0xD8, 0xFF], to: folder.path("poster.jpg"))
        #expect(try String(contentsOfFile: folder.path("report.json"), encoding: .utf8) == "new")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("poster.jpg")) == Data([0xFF, 0xD8, 0xFF]))
        #expect(try Self.leftovers(folder) == [])
    }

    @Test(arguments: ["symlink", "fifo", "folder"])
    func refusesToWriteOverAnythingButARegularFile(_ kind: String) throws {
        let folder = try TemporaryFolder(["precious.txt": "keep"])
        let target = folder.path("report.json")
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: "precious.txt")
        case "fifo": try #require(mkfifo(target, 0o644) == 0)
        default: try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        }
        let error = try #require(throws: RegularFileError.self) {
            try AtomicFile.write(Array("new".utf8), to: target)
        }
        #expect(error.path == target)
        #expect(error.reason.contains("only a regular file is replaced, so nothing was written"), "\(error)")
        #expect(error.reason.contains("remove it or choose another path"), "\(error)")
        #expect(try String(contentsOfFile: folder.path("precious.txt"), encoding: .utf8) == "keep")
        #expect(try Self.leftovers(folder) == [])
    }

    @Test func aFolderThatDoesNotExistIsNamedInTheError() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("missing/report.json")
        let error = try #require(throws: RegularFileError.self) {
            try AtomicFile.write(Array("new".utf8), to: target)
        }
        #expect(error.description == "\(target): cannot create a file in its folder: No such file or directory")
    }
}
