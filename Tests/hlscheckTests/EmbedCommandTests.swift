import Foundation
import TestSupport
import Testing

@Suite struct EmbedCommandTests {
    /// A fresh copy of Samples/compliant in its own temporary folder.
    static func copyOfCompliantSample() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: PackageRoot.url.appendingPathComponent("Samples/compliant"), to: folder.url.appendingPathComponent("stream"))
        return (folder, folder.path("stream"))
    }

    static let poster = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/poster.jpg").path

    @Test func inPlaceEmbedKilledAtAnyMomentLeavesTheOldOrTheNewStream() throws {
        let (referenceFolder, reference) = try Self.copyOfCompliantSample()
        let original = try snapshot(reference)
        let started = Date()
        let finished = try HLSCheckBinary.run(["embed", "--image", Self.poster, "--in-place", reference + "/master.m3u8"])
        let duration = Date().timeIntervalSince(started)
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        let embedded = try snapshot(reference)
        #expect(embedded != original)
        _ = referenceFolder

        // Kill points spread over the whole run, deterministic: 0 %, 7 %, … 98 % of its duration.
        var outcomes: [String: Int] = [:]
        for step in 0..<15 {
            let (folder, stream) = try Self.copyOfCompliantSample()
            let process = Process()
            process.executableURL = HLSCheckBinary.executable
            process.arguments = ["embed", "--image", Self.poster, "--in-place", stream + "/master.m3u8"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(duration * Double(step) / 15 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let after = try snapshot(stream)
            let state = after == original ? "old" : after == embedded ? "new" : "mixed"
            outcomes[state, default: 0] += 1
            #expect(state != "mixed", "killed at step \(step): the stream is neither the old nor the new one")
            _ = folder
        }
        #expect(outcomes["mixed"] == nil)
    }

    @Test func refusesWithoutADestinationAndWithANonImage() throws {
        let (folder, stream) = try Self.copyOfCompliantSample()
        let noDestination = try HLSCheckBinary.run(["embed", "--image", Self.poster, stream + "/master.m3u8"])
        #expect(noDestination.status == 64)
        #expect(noDestination.stderr.contains("--output DIR for a copy, or --in-place"))
        let notImage = try HLSCheckBinary.run(["embed", "--image", stream + "/master.m3u8", stream + "/master.m3u8", "--output", folder.path("out")])
        #expect(notImage.status == 2)
        #expect(notImage.stderr.contains("master.m3u8"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func budgetRefusalPrintsTheNumbersAndExits2() throws {
        let (folder, stream) = try Self.copyOfCompliantSample()
        let large = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/poster-large.jpg").path
        let result = try HLSCheckBinary.run(["embed", "--image", large, stream + "/master.m3u8", "--output", folder.path("out"), "--budget-kbps", "48"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("poster-large.jpg is "))
        #expect(result.stderr.contains("would peak at"))
        #expect(result.stderr.contains("at most"))
    }
}
