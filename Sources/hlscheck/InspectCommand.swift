import ArgumentParser
import FoundationEssentials
import HLSCheck
import HLSPlaylist
import HLSRemote
import MediaFormats
import MediaInspection
import StreamSources

/// `hlscheck inspect SEGMENT…`: what one segment contains, as libavformat and our ID3 reader see it.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print what media segments contain: tracks, codecs, duration, ID3 tags, posters."
    )

    @Argument(help: "Segment files (.ts, .aac, .mp3, .ac3, .ec3, .m4s, .mp4).", completion: .file())
    var segments: [String]

    @Option(
        name: .customLong("init"), help: "The EXT-X-MAP initialization section for fMP4 fragments.", completion: .file()
    )
    var initSection: String?

    @Option(help: "Output format.")
    var format: InspectFormat = .text

    @Option(
        name: .customLong("max-segment-bytes"),
        help: ArgumentHelp("Largest segment read, in bytes.", valueName: "bytes"))
    var maxSegmentBytes: Int = LocalSegmentSource.defaultMaximumByteCount

    @Option(
        name: .customLong("max-image-pixels"),
        help: ArgumentHelp("Largest poster decoded, in pixels.", valueName: "pixels"))
    var maxImagePixels: Int = ImageHeader.defaultMaximumPixels

    @Option(
        name: .customLong("max-id3-bytes"), help: ArgumentHelp("Largest ID3 tag read, in bytes.", valueName: "bytes"))
    var maxID3Bytes: Int = EmbeddedID3.maximumPESSize

    func validate() throws {
        if maxSegmentBytes < 1 { throw ValidationError("--max-segment-bytes must be at least 1") }
        if maxImagePixels < 1 { throw ValidationError("--max-image-pixels must be at least 1") }
        if maxID3Bytes < 1 { throw ValidationError("--max-id3-bytes must be at least 1") }
    }

    enum InspectFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, json
    }

    @OptionGroup(title: "Remote segments (http, https)")
    var remote: RemoteArguments

    func run() async throws {
        try requireFFmpeg()
        // Regular files only (a FIFO is refused, never waited on), within the byte limit; URLs
        // are fetched into memory within the same limit.
        let inputs = segments + [initSection].compactMap { $0 }
        let fetcher =
            inputs.contains(where: URIScheme.isRemote)
            ? RemoteFetcher(options: remote.options(sendingHeadersTo: inputs)) : nil
        do {
            try await inspect(fetcher)
        } catch {
            await fetcher?.shutdown()
            throw error
        }
        await fetcher?.shutdown()
    }

    private func inspect(_ fetcher: RemoteFetcher?) async throws {
        let source: any SegmentByteSource =
            fetcher.map { RemoteSegmentSource(fetcher: $0, maximumByteCount: maxSegmentBytes) as any SegmentByteSource }
            ?? LocalSegmentSource(maximumByteCount: maxSegmentBytes)
        let inspector = SegmentInspector(
            source: source, maximumImagePixels: maxImagePixels, maximumID3Bytes: maxID3Bytes)
        var all: [SegmentFacts] = []
        var failed = false
        for segment in segments {
            do {
                // The arguments are file paths (or URLs): each becomes the URI reference naming
                // that very file (a folder named "a%20b" is not "a b").
                let facts = try await inspector.inspect(
                    SegmentRequest(
                        uri: ResolutionBase(input: segment).uriReference,
                        initSection: initSection.map {
                            SegmentRequest.InitSection(uri: ResolutionBase(input: $0).uriReference)
                        },
                        wantsStreamInfo: true))
                var shown = facts
                shown.uri = CredentialRedaction.redact(segment)
                all.append(shown)
                failed = failed || facts.problem != nil
            } catch let error as InputReadError {
                printError("hlscheck: \(TerminalText.escaped(CredentialRedaction.redact(error.description)))")
                throw ExitCode(2)
            } catch {
                printError("hlscheck: \(TerminalText.escaped(CredentialRedaction.redact(segment))): cannot be read")
                throw ExitCode(2)
            }
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(all), as: UTF8.self))
        case .text:
            for facts in all { print(describe(facts)) }
        }
        if failed { throw ExitCode(1) }
    }

    func describe(_ facts: SegmentFacts) -> String {
        var lines = [
            "\(CredentialRedaction.redact(facts.uri)): \(facts.container.rawValue), \(facts.byteCount) bytes"
                + (facts.duration.map { ", \(fixedPoint($0, decimals: 3)) s" } ?? "")
                + (facts.firstPTS.map { ", first PTS \(fixedPoint($0, decimals: 3)) s" } ?? "")
        ]
        if let problem = facts.problem { lines.append("  problem: \(problem)") }
        for track in facts.tracks {
            var parts = ["  \(track.kind.rawValue)", track.codecString ?? track.codecName]
            if let width = track.width, let height = track.height, width > 0 { parts.append("\(width)x\(height)") }
            if let channels = track.channels { parts.append("\(channels) ch") }
            if let rate = track.sampleRate { parts.append("\(rate) Hz") }
            if let transfer = track.transferCharacteristics { parts.append("transfer \(transfer)") }
            if track.interlaced == true { parts.append("interlaced") }
            if let vision = track.dolbyVision {
                parts.append("Dolby Vision profile \(vision.profile) level \(vision.level)")
            }
            parts.append("\(track.packetCount) packets")
            lines.append(parts.joined(separator: ", "))
        }
        for tag in facts.id3 {
            var head = "  ID3 at byte \(tag.offset)"
            if let version = tag.majorVersion { head += ", v2.\(version)" }
            if let pts = tag.pts90k { head += ", PTS \(pts)" }
            if let problem = tag.problem { head += ": \(problem)" }
            lines.append(head)
            for frame in tag.frames {
                lines.append("    \(frame.id) \(frame.summary) (\(frame.byteCount) bytes)")
            }
        }
        for artwork in facts.artwork {
            var line = "  poster \(artwork.mimeType), \(artwork.byteCount) bytes"
            if let width = artwork.width, let height = artwork.height { line += ", \(width)x\(height)" }
            if let problem = artwork.decodeProblem { line += ", does not decode: \(problem)" }
            lines.append(line + ", sha256 \(artwork.contentHash.prefix(16))…")
        }
        // Names and ID3 text come from files: escaped so they cannot drive the terminal.
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
    }
}
