import ArgumentParser
import Foundation
import HLSCheck
import HLSPlaylist
import MediaInspection

/// `hlscheck artwork INPUT [--extract poster.jpg]`: find the poster a stream or segment carries,
/// and write it out so a user can finally see what the audio-only variant shows.
struct ArtworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artwork",
        abstract: "Show (and extract) the still image embedded in a stream's segments.",
        discussion: "With a playlist, the poster in the first segment of every media playlist is listed, audio-only variants first; --extract writes the first one listed."
    )

    @Argument(help: "A multivariant or media playlist (.m3u8), or one segment.")
    var input: String

    @Option(help: "Write the image bytes to this file (replaced atomically).")
    var extract: String?

    func run() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        var found: [(origin: String, picture: Picture)] = []
        do {
            if input.lowercased().hasSuffix(".m3u8") || input.lowercased().hasSuffix(".m3u") {
                for (playlistURI, segment) in try await firstSegments() {
                    if let picture = try await firstPicture(inspector, segment) {
                        found.append(("\(playlistURI) (\(segment.uri))", picture))
                    } else {
                        print("\(playlistURI): no poster in its segments")
                    }
                }
            } else if let picture = try await firstPicture(inspector, SegmentRequest(uri: input)) {
                found.append((input, picture))
            }
        } catch let error as CheckError {
            printError("hlscheck: \(error.description)")
            throw ExitCode(2)
        } catch {
            printError("hlscheck: \(error)")
            throw ExitCode(2)
        }
        for (origin, picture) in found {
            print("\(origin): \(picture.mimeType), \(picture.data.count) bytes\(picture.dimensions)")
        }
        guard let first = found.first else {
            print("\(input): no poster found")
            throw ExitCode(1)
        }
        if let extract {
            do {
                try AtomicFile.write(first.picture.data, to: extract)
            } catch {
                printError("hlscheck: cannot write \(extract): \(error)")
                throw ExitCode(2)
            }
            print("wrote \(extract) (\(first.picture.data.count) bytes, \(first.picture.mimeType)) from \(first.origin)")
        }
    }

    struct Picture {
        var mimeType: String
        var data: [UInt8]

        var dimensions: String {
            guard case .success(let size) = ArtworkDecoder.decode(data, mimeType: mimeType) else {
                return ", does not decode as an image"
            }
            return ", \(size.width)x\(size.height)"
        }
    }

    /// Each measured media playlist, audio-only variants first, with the requests of its segments.
    private func firstSegments() async throws -> [(String, SegmentRequest)] {
        let loaded: LoadedStream
        do {
            loaded = try await PlaylistLoader(source: LocalFileSource()).load(input)
        } catch {
            throw CheckError("\(input): cannot read the playlist: \(error)")
        }
        let analysis = StreamAnalysis(loaded: loaded)
        let audioOnly = Set(analysis.variants.filter(\.isAudioOnly).map(\.playlistURI))
        let playlists = StreamAnalysis.playlistsToMeasure(loaded).sorted {
            (audioOnly.contains($0.key) ? 0 : 1, $0.key) < (audioOnly.contains($1.key) ? 0 : 1, $1.key)
        }
        return playlists.compactMap { uri, playlist in
            guard let segment = playlist.segments.first else { return nil }
            return (uri, SegmentRequest(
                uri: URIResolver.resolve(segment.uri, against: uri),
                range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) }))
        }
    }

    private func firstPicture(_ inspector: SegmentInspector, _ request: SegmentRequest) async throws -> Picture? {
        try await inspector.extractArtwork(request).first.map { Picture(mimeType: $0.mimeType, data: $0.data) }
    }
}
