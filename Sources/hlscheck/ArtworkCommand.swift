import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSPlaylist
import HLSRemote
import MediaInspection
import FileSystem
import StreamSources

/// `hlscheck artwork INPUT [--extract poster.jpg]`: find the poster a stream or segment carries,
/// and write it out so a user can finally see what the audio-only variant shows.
struct ArtworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artwork",
        abstract: "Show (and extract) the still image embedded in a stream's segments.",
        discussion:
            "With a playlist, the poster in the first segment of every media playlist is listed, audio-only variants first; --extract writes the first one listed."
    )

    @Argument(help: "A multivariant or media playlist (.m3u8), or one segment.", completion: .file())
    var input: String

    @Option(
        help: "Write the image bytes to this file (replaced atomically; only a regular file is replaced).",
        completion: .file())
    var extract: String?

    @OptionGroup(title: "Limits and file access")
    var limitOptions: LimitOptions

    @OptionGroup(title: "Remote streams (http, https)")
    var remote: RemoteArguments

    func run() async throws {
        try requireFFmpeg()
        limitOptions.startWatchdog(command: "artwork")
        let fetcher =
            URIScheme.isRemote(input) ? RemoteFetcher(options: remote.options(sendingHeadersTo: [input])) : nil
        do {
            try await show(fetcher)
        } catch {
            await fetcher?.shutdown()
            throw error
        }
        await fetcher?.shutdown()
    }

    private func show(_ fetcher: RemoteFetcher?) async throws {
        let limits = limitOptions.limits
        let segmentSource: any SegmentByteSource =
            fetcher.map {
                RemoteSegmentSource(fetcher: $0, maximumByteCount: limits.segmentBytes) as any SegmentByteSource
            }
            ?? LocalSegmentSource(maximumByteCount: limits.segmentBytes)
        let playlistSource: any PlaylistSource =
            fetcher.map { RemotePlaylistSource(fetcher: $0, maximumSize: limits.playlistBytes) as any PlaylistSource }
            ?? LocalFileSource(maximumSize: limits.playlistBytes)
        let inspector = SegmentInspector(
            source: segmentSource, maximumImagePixels: limits.imagePixels, maximumID3Bytes: limits.id3Bytes)
        var found: [(origin: String, picture: Picture)] = []
        // The path decides, without query or fragment: https://host/master.m3u8?token=… is a playlist.
        let path = (input.split(separator: "?", maxSplits: 1).first.map(String.init) ?? input).lowercased()
        do {
            if path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") {
                // In an audio-only variant, the first segment that carries one: a stream whose
                // first segment has none (a pre-roll, a segment left out when it was packaged)
                // still has a poster. Elsewhere the first segment only, as posters are rare there
                // and a video variant's segments are many and large.
                for (playlistURI, all, audioOnly) in try await segmentRequests(playlistSource) {
                    let segments = audioOnly ? all : Array(all.prefix(1))
                    var picture: (SegmentRequest, Picture)?
                    var unreadable: [String] = []
                    for segment in segments {
                        let carried: Picture?
                        do {
                            carried = try await firstPicture(inspector, segment)
                        } catch let error as InputReadError where segments.count > 1 {
                            // One missing segment does not hide the poster of the others.
                            unreadable.append(error.description)
                            continue
                        }
                        if let carried {
                            picture = (segment, carried)
                            break
                        }
                    }
                    // Locations are URI references: shown as the files they name, as typed.
                    let playlistPath = LocalPath.shown(playlistURI)
                    if let (segment, carried) = picture {
                        found.append(("\(playlistPath) (\(LocalPath.shown(segment.uri)))", carried))
                    } else {
                        let which =
                            segments.count == all.count
                            ? "any of its \(all.count) segment\(all.count == 1 ? "" : "s")" : "its first segment"
                        let unread =
                            unreadable.isEmpty
                            ? ""
                            : " (\(unreadable.count) could not be read: \(unreadable[0])\(unreadable.count > 1 ? ", …" : ""))"
                        print(
                            "\(TerminalText.escaped(CredentialRedaction.redact(playlistPath))): no poster in \(which)\(TerminalText.escaped(CredentialRedaction.redact(unread)))"
                        )
                    }
                }
            } else if let picture = try await firstPicture(
                inspector, SegmentRequest(uri: ResolutionBase(input: input).uriReference))
            {
                found.append((input, picture))
            }
        } catch let error as CheckError {
            printError("hlscheck: \(TerminalText.escaped(CredentialRedaction.redact(error.description)))")
            throw ExitCode(2)
        } catch let error as InputReadError {
            printError("hlscheck: \(TerminalText.escaped(CredentialRedaction.redact(error.description)))")
            throw ExitCode(2)
        } catch {
            printError("hlscheck: \(TerminalText.escaped(CredentialRedaction.redact(input))): cannot be read")
            throw ExitCode(2)
        }
        for (origin, picture) in found {
            let line =
                "\(origin): \(picture.mimeType), \(picture.data.count) bytes\(picture.dimensions(maximumPixels: limits.imagePixels))"
            print(TerminalText.escaped(CredentialRedaction.redact(line)))
        }
        guard let first = found.first else {
            print("\(TerminalText.escaped(CredentialRedaction.redact(input))): no poster found")
            throw ExitCode(1)
        }
        if let extract {
            do {
                try AtomicFile.write(first.picture.data, to: extract)
            } catch {
                printError("hlscheck: cannot write the poster: \(TerminalText.escaped(error.description))")
                throw ExitCode(2)
            }
            print(
                TerminalText.escaped(
                    CredentialRedaction.redact(
                        "wrote \(extract) (\(first.picture.data.count) bytes, \(first.picture.mimeType)) from \(first.origin)"
                    )))
        }
    }

    struct Picture {
        var mimeType: String
        var data: [UInt8]

        func dimensions(maximumPixels: Int) -> String {
            switch PosterDecoder.decode(data, mimeType: mimeType, maximumPixels: maximumPixels) {
            case .success(let size): return ", \(size.width)x\(size.height)"
            case .failure(let failure): return ", not shown: \(failure.description)"
            }
        }
    }

    /// Each measured media playlist, audio-only variants first, with the requests of its segments.
    private func segmentRequests(_ source: any PlaylistSource) async throws -> [(
        String, [SegmentRequest], audioOnly: Bool
    )] {
        let loaded: LoadedStream
        do {
            let limits = limitOptions.limits
            loaded = try await PlaylistLoader(
                source: source, limits: limits.loader,
                confinement: limitOptions.confinement
            ).load(input)
        } catch let error as InputReadError {
            throw CheckError("cannot read the playlist \(error.description)")
        } catch {
            throw CheckError("\(input): cannot read the playlist")
        }
        let analysis = StreamAnalysis(loaded: loaded)
        let audioOnly = Set(analysis.variants.filter(\.isAudioOnly).map(\.playlistURI))
        let playlists = StreamAnalysis.playlistsToMeasure(loaded).sorted {
            (audioOnly.contains($0.key) ? 0 : 1, $0.key) < (audioOnly.contains($1.key) ? 0 : 1, $1.key)
        }
        // Segments outside the stream's root are not read (hlscheck check reports them).
        let outside = loaded.outsideRootURIs
        return playlists.compactMap { uri, playlist in
            let requests = playlist.segments.compactMap { segment -> SegmentRequest? in
                guard !outside.contains(URIResolver.resolve(segment.uri, against: uri)) else { return nil }
                return SegmentRequest(
                    uri: URIResolver.resolve(segment.uri, against: uri),
                    range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) })
            }
            // A media playlist given alone is read on too: it is the one the user asks about.
            return requests.isEmpty ? nil : (uri, requests, audioOnly.contains(uri) || playlists.count == 1)
        }
    }

    private func firstPicture(_ inspector: SegmentInspector, _ request: SegmentRequest) async throws -> Picture? {
        try await inspector.extractPictures(request).first.map { Picture(mimeType: $0.mimeType, data: $0.data) }
    }
}
