import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A stream folder that holds a mount point (the audio on another file system): `embed
/// --in-place` rewrites the files inside it and leaves the mount where it is. The old design
/// swapped whole folders and moved mount points. Needs the right to mount (root on Linux).
@Suite struct MountPointEmbedTests {
    static var canMount: Bool {
        #if os(Linux)
        getuid() == 0
        #else
        false
        #endif
    }

    static func device(_ path: String) throws -> UInt64 {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw EmbedError("\(path): \(String(cString: strerror(errno)))") }
        return UInt64(info.st_dev)
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func inPlaceRewritesInsideAMountPointAndLeavesItMounted() async throws {
        #if os(Linux)
        let (folder, master) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        let saved = folder.path("audio-files")
        try FileManager.default.moveItem(atPath: audio, toPath: saved)
        try FileManager.default.createDirectory(atPath: audio, withIntermediateDirectories: false)
        try #require(mount("none", audio, "tmpfs", 0, nil) == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(audio, Int32(MNT_DETACH)) }
        for name in try FileManager.default.contentsOfDirectory(atPath: saved) {
            try FileManager.default.copyItem(atPath: saved + "/" + name, toPath: audio + "/" + name)
        }
        let mountedDevice = try Self.device(audio)
        #expect(mountedDevice != (try Self.device(folder.path("compliant"))))

        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .inPlace)).run()
        #expect(outcome.verification.diagnostics.isEmpty, "\(outcome.verification.diagnostics)")
        // Still the mounted file system, holding the rewritten segments the playlist names.
        #expect(try Self.device(audio) == mountedDevice)
        let playlist = try String(contentsOfFile: audio + "/index.m3u8", encoding: .utf8)
        let segments = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(segments.count == 3)
        for segment in segments {
            #expect(try Self.device(audio + "/" + segment) == mountedDevice)
            #expect(try pictures(in: audio + "/" + segment, container: .mpegTS).count == 1)
        }
        #endif
    }
}
