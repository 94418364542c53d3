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
        let (folder, multivariant) = try sampleCopy("compliant")
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

        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
                destination: .inPlace)
        ).run()
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

    /// Pages a file takes on a tmpfs.
    static func pages(_ path: String) throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return (size + 4095) / 4096
    }

    /// The disk fills exactly when the first playlist is written: nothing was replaced yet, so
    /// the run takes its new segments back and the folder is as before. It used to count the
    /// stream as committed before that write, leave the new segments and say "run again".
    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func aDiskFullWhenTheFirstPlaylistIsWrittenTakesBackTheNewSegments() async throws {
        #if os(Linux)
        let request = { (multivariant: String) throws in
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
                destination: .inPlace)
        }
        // The new segments' sizes, from the same embed on a copy.
        let (sized, sizedMultivariant) = try sampleCopy("compliant")
        _ = try await PosterEmbedder(try request(sizedMultivariant)).run()
        let sizedAudio = sized.path("compliant/audio")
        let newPages = try FileManager.default.contentsOfDirectory(atPath: sizedAudio)
            .filter { $0.contains(".embed-") }.reduce(0) { $0 + (try Self.pages(sizedAudio + "/" + $1)) }

        let (folder, multivariant) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        let saved = folder.path("audio-files")
        try FileManager.default.moveItem(atPath: audio, toPath: saved)
        try FileManager.default.createDirectory(atPath: audio, withIntermediateDirectories: false)
        let names = try FileManager.default.contentsOfDirectory(atPath: saved).sorted()
        let oldPages = try names.reduce(0) { $0 + (try Self.pages(saved + "/" + $1)) }
        // Room for the old files and the new segments, and at most a few pages more (tmpfs may
        // count one more page than the files' sizes): the first size at which the playlist is
        // what does not fit.
        var message = ""
        for extra in 0...4 where !message.contains("index.m3u8") {
            try #require(
                mount("none", audio, "tmpfs", 0, "size=\((oldPages + newPages + extra) * 4096)") == 0,
                "mount: \(String(cString: strerror(errno)))")
            defer { umount2(audio, Int32(MNT_DETACH)) }
            for name in names {
                try FileManager.default.copyItem(atPath: saved + "/" + name, toPath: audio + "/" + name)
            }
            do {
                _ = try await PosterEmbedder(try request(multivariant)).run()
                Issue.record(
                    "with \(extra) pages to spare the whole embed fitted: no size made the playlist the write that fails"
                )
                return
            } catch {
                message = String(describing: error)
            }
            guard message.contains("index.m3u8") else { continue }
            #expect(message.contains("audio/index.m3u8") && message.contains("No space left on device"), "\(message)")
            #expect(!message.contains("run the command again"), "nothing was replaced: nothing to finish")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: audio).sorted() == names,
                "the new segments are taken back")
            for name in names {
                #expect(
                    FileManager.default.contents(atPath: audio + "/" + name)
                        == FileManager.default.contents(atPath: saved + "/" + name))
            }
        }
        #expect(message.contains("index.m3u8"), "\(message)")
        #endif
    }
}
