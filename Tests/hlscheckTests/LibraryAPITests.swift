import Foundation
import Testing
import TestSupport

/// docs/library.md's example compiles as a client outside the package sees the modules: only
/// their public API, none of what the package's own modules share at `package` level.
@Suite struct LibraryAPITests {
    /// `swiftc -typecheck` of `source` against the modules of the build these tests belong to.
    static func typecheck(_ source: String) throws -> ChildProcess.Outcome {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let build = URL(fileURLWithPath: Bundle.main.bundlePath)
        // The C modules the libraries import: the package's own module maps, and those the
        // build generated for targets with an include/ folder.
        var moduleMaps =
            (try? FileManager.default.contentsOfDirectory(
                atPath: PackageRoot.url.appendingPathComponent("Sources").path))?
            .map { PackageRoot.url.appendingPathComponent("Sources/\($0)/module.modulemap").path } ?? []
        moduleMaps +=
            (try? FileManager.default.contentsOfDirectory(atPath: build.path))?
            .filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent("\($0)/module.modulemap").path } ?? []
        let swiftc = try #require(ChildProcess.locate("swiftc"), "swiftc is not on PATH")
        // libxml2's headers are off the default include path (Package.swift passes the same
        // folder); a module cache of its own keeps the result independent of earlier runs.
        return try ChildProcess.capture(
            [
                swiftc, "-typecheck", "-I", build.appendingPathComponent("Modules").path,
                "-module-cache-path", folder.url.appendingPathComponent("module-cache").path, "-Xcc",
                "-I/usr/include/libxml2",
            ]
                + moduleMaps.filter { FileManager.default.fileExists(atPath: $0) }.flatMap {
                    ["-Xcc", "-fmodule-map-file=\($0)"]
                }
                + [file.path],
            timeLimit: .seconds(300))
    }

    static var example: String {
        get throws {
            let text = try String(
                contentsOf: PackageRoot.url.appendingPathComponent("docs/library.md"), encoding: .utf8)
            let start = try #require(text.range(of: "```swift\n"), "docs/library.md has no swift example")
            let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
            return String(text[start.upperBound..<end.lowerBound])
        }
    }

    @Test func theDocumentedExampleCompilesAsAClientOfTheLibrary() throws {
        let result = try Self.typecheck(try Self.example)
        #expect(result.status == 0, "docs/library.md's example no longer compiles:\n\(result.stderr)")
    }

    /// What the package's modules share among themselves stays out of a client's reach: the
    /// rules, the measurement, the parser's model.
    @Test(arguments: [
        ("let _: [HLSCheck.RuleDescription] = []", "no type named 'RuleDescription'"),
        (
            "func f(_ report: CheckReport) { _ = report.variants }",
            "'variants' is inaccessible due to 'package' protection level"
        ),
        ("import HLSPlaylist\nlet _ = PlaylistParser.self", "cannot find 'PlaylistParser' in scope"),
    ])
    func packageLevelDeclarationsAreNotPartOfTheAPI(_ use: String, _ refusal: String) throws {
        let result = try Self.typecheck("import HLSCheck\n" + use + "\n")
        #expect(result.status != 0, "a client can use `\(use)`: it became public")
        #expect(result.stderr.contains(refusal), "\(result.stderr)")
    }
}
