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
import HLSEmbedding
import HLSPackaging
import HLSReporting
import MediaFormats
import MediaInspection
import StreamSources
import FileSystem

/// `hlscheck embed --image poster.jpg PLAYLIST --output DIR | --in-place`.
struct EmbedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Put a poster (ID3 APIC) into every audio-only segment, within the budget.",
        discussion: """
            Targets every audio-only variant and the audio renditions it uses (an AUDIO rendition \
            that plays beside video only when named with --variant): \
            MPEG-TS gains a timed-ID3 stream, packed audio an APIC in its leading ID3 tag, fMP4 an \
            emsg box. BANDWIDTH and AVERAGE-BANDWIDTH of the touched variants are recomputed; every \
            other byte of every playlist stays. Embedding again replaces the poster; --remove takes \
            it out. Nothing is written when the result would exceed the budget (unless --force), \
            and the written stream is checked again: exit 1 for an error in what embed wrote; \
            findings the stream had before are counted, and fail only with --fail-on. \
            With --add-audio-only it creates the missing audio-only variant instead: the source's \
            audio re-encoded as AAC-LC within the budget, cut on the source's segment boundaries, \
            the poster in every segment, added to the multivariant playlist (docs/embed.md).
            """
    )

    @Option(help: "The poster: a JPEG or PNG file.", completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var image: String?

    @Option(
        name: .customLong("poster-from-video"),
        help: ArgumentHelp(
            "Take the poster from the stream's own video instead of --image: the frame at TIME (seconds, M:SS, H:MM:SS, or a share such as 25%; TIME may be left out: 10%) of the video variant with the most pixels, re-encoded as JPEG to fit the budget as with --fit.",
            valueName: "time"))
    var posterFromVideo: PosterFrameTime?

    @Argument(help: "The multivariant or media playlist.", completion: .file(extensions: ["m3u8", "m3u"]))
    var playlist: String

    @Option(help: "Write a complete copy of the stream into this folder.", completion: .directory)
    var output: String?

    @Flag(
        name: .customLong("in-place"),
        help:
            "Rewrite the stream where it is (new segments under new names, the playlists swapped in last); a finished stream only (EXT-X-ENDLIST), one no other program writes meanwhile."
    )
    var inPlace = false

    @Flag(help: "When another hlscheck embed is rewriting the same stream, wait for it instead of refusing.")
    var wait = false

    @Option(
        name: .customLong("variant"),
        help:
            "Only this audio-only variant or audio rendition (URI); repeatable. An AUDIO rendition that plays beside video gets the poster only when named."
    )
    var variants: [String] = []

    @Option(help: "The APIC description text.")
    var description = ""

    @Flag(
        name: .customLong("keep-names"),
        help:
            "Rewrite segments under their own names (each replaced whole by a rename) instead of new names made from their bytes; for streams behind no cache (docs/embed.md)."
    )
    var keepNames = false

    @Flag(help: "Take the poster out instead.")
    var remove = false

    @Flag(help: "Write even when the result exceeds the budget.")
    var force = false

    @Flag(
        help:
            "Re-encode the image (JPEG quality, then size, down to a smallest side of 16 px at qscale 31) to the largest version that fits the budget."
    )
    var fit = false

    @Flag(
        name: .customLong("add-audio-only"),
        help:
            "Create the missing audio-only variant (AAC-LC within the budget, the poster in every segment; one rendition per language when the source's AUDIO group has several) and add it to the multivariant playlist; nothing when one that does its job is there; with --remove, drop the one added before."
    )
    var addAudioOnly = false

    @Flag(
        help:
            "With --add-audio-only: when the stream has an audio-only variant that does not do its job (over the budget, or without the poster), build the new one in its place."
    )
    var replace = false

    @Option(
        name: .customLong("name"),
        help:
            "With --add-audio-only: the new variant's playlist, DIR/PLAYLIST relative to the multivariant playlist (default audio-only/index.m3u8 when nothing is there)."
    )
    var variantName: String?

    @Option(
        name: .customLong("audio-bitrate"),
        help:
            "With --add-audio-only: the AAC bit rate in kbit/s (default: the highest of 24, 32, 40, 48, 56, 64, 80, 96, 112, 128 whose peak with the poster fits the budget; stereo from 32)."
    )
    var audioBitrate: Int?

    @Option(
        name: .customLong("audio-from"),
        help:
            "With --add-audio-only: the variant or audio rendition (URI) to take the audio from (default: the best audio)."
    )
    var audioFrom: String?

    @Option(
        name: .customLong("fail-on"),
        help:
            "Lowest severity of a re-check finding that makes the exit code 1, findings that were in the stream before embed included (default: an error in what embed wrote; old findings are only counted)."
    )
    var failOn: FailLevel?

    @Option(name: .customLong("budget-kbps"), help: "Audio-only budget in kbit/s, poster included.")
    var budgetKbps: Int = SettingBounds.budgetKbps.defaultValue

    // Untitled: swift-argument-parser prints titled groups before OPTIONS, which put the limits
    // above --image and --output, the options every embed needs.
    @OptionGroup
    var limitOptions: LimitOptions

    func validate() throws {
        if let problem = SettingBounds.budgetKbps.problem(budgetKbps, as: SettingBounds.budgetKbps.flag) {
            throw ValidationError(problem)
        }
        // embed writes segments and playlists: it works on a local copy of a stream only.
        if URIScheme.isRemote(playlist) {
            throw ValidationError(
                "embed rewrites a stream's files, so it works on local streams only; \(CredentialRedaction.redact(playlist)) is a URL. Download the stream (e.g. with ffmpeg or wget --mirror), embed into the copy, then publish it; hlscheck check and artwork accept URLs"
            )
        }
        guard (output != nil) != inPlace else {
            throw ValidationError(
                output == nil
                    ? "say where to write: --output DIR for a copy, or --in-place to rewrite the stream"
                    : "--output and --in-place exclude each other: choose one")
        }
        if addAudioOnly {
            if remove && image != nil { throw ValidationError("--remove takes no --image") }
            if let audioBitrate, !(16...320).contains(audioBitrate) {
                throw ValidationError("--audio-bitrate must be between 16 and 320 (kbit/s)")
            }
            if !variants.isEmpty {
                throw ValidationError(
                    "--variant does not apply to --add-audio-only (use --audio-from to choose the source)")
            }
            if keepNames {
                throw ValidationError(
                    "--keep-names does not apply to --add-audio-only (its files are new; --name chooses the playlist's)"
                )
            }
            if posterFromVideo != nil && (image != nil || remove) {
                throw ValidationError(
                    remove
                        ? "--remove takes no --poster-from-video"
                        : "--image and --poster-from-video exclude each other: the poster is one or the other")
            }
            if fit && image == nil && posterFromVideo == nil { throw ValidationError("--fit needs an --image") }
            if let variantName, let problem = AudioOnlyVariantBuilder.nameProblem(variantName) {
                throw ValidationError("--name \(variantName): the new variant's playlist needs \(problem)")
            }
            return
        }
        if audioBitrate != nil || audioFrom != nil || replace || variantName != nil {
            throw ValidationError("--audio-bitrate, --audio-from, --name and --replace go with --add-audio-only")
        }
        if posterFromVideo != nil && (image != nil || remove) {
            throw ValidationError(
                remove
                    ? "--remove takes no --poster-from-video"
                    : "--image and --poster-from-video exclude each other: the poster is one or the other")
        }
        guard remove != (image != nil || posterFromVideo != nil) else {
            throw ValidationError(
                remove
                    ? "--remove takes no --image"
                    : "give the poster with --image FILE or --poster-from-video [TIME] (or --remove)")
        }
        if fit && remove { throw ValidationError("--fit needs an --image") }
    }

    func run() async throws {
        try requireFFmpeg()
        limitOptions.startWatchdog(command: "embed")
        var poster: Poster?
        if let image {
            poster = try loadPoster(image)
        }
        var request = EmbedRequest(
            input: playlist, poster: poster, posterName: image.map { PathString.lastComponent($0) } ?? "",
            destination: output.map { .folder($0) } ?? .inPlace, variants: variants, force: force, fit: fit,
            configuration: configuration)
        request.posterFromVideo = posterFromVideo
        request.posterDescription = description
        request.wait = wait
        request.keepNames = keepNames
        request.report = { printError("hlscheck: \(TerminalText.escaped($0))") }
        request.writeStepHook = Self.testHook()
        if addAudioOnly { return try await runAddAudioOnly(poster: poster) }
        let outcome: EmbedOutcome
        do {
            outcome = try await PosterEmbedder(request).run()
        } catch {
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        if let fitted = outcome.fittedImage { print("re-encoded \(posterSourceName): \(fitted)") }
        for target in outcome.targets {
            let before = target.peakBefore?.formattedBitrate ?? "?"
            let after = target.peakAfter?.formattedBitrate ?? "?"
            let count =
                target.withoutPoster > 0
                ? "\(target.segments - target.withoutPoster) of \(target.segments)" : "\(target.segments)"
            print(
                "\(remove ? "removed the poster from" : "embedded the poster in") \(count) segments of \(TerminalText.escaped(target.uri)): peak \(before) → \(after)"
            )
            for note in target.notes { printError("hlscheck: \(TerminalText.escaped(note))") }
        }
        // Paths as typed (the output folder may be named "Stream #1"), escaped like every name.
        print("wrote \(TerminalText.escaped(outcome.output))\n")
        try finish(outcome.verification, outcome.verdict, output: outcome.output)
    }

    /// Prints the re-check — the findings in what embed wrote, and how many were in the stream
    /// before — and exits 1 when the policy says so (docs/embed.md, "Exit code").
    func finish(_ verification: CheckReport, _ verdict: EmbedVerdict, output: String) throws {
        var shown = verification
        shown.diagnostics = verdict.written
        print(TextReporter(width: Terminal.textWidth(STDOUT_FILENO)).render([shown]), terminator: "")
        let before = verdict.beforeCount
        if before > 0 {
            print(
                "\(before) finding\(before == 1 ? " was" : "s were") in the ladder before embed; `hlscheck check \(TerminalText.escaped(output))` lists them"
            )
        }
        if verdict.fails(failPolicy) { throw ExitCode(1) }
    }

    var failPolicy: EmbedVerdict.FailPolicy {
        guard let failOn else { return .writtenErrors }
        return failOn.threshold.map { .atOrAbove($0) } ?? .never
    }

    func runAddAudioOnly(poster: Poster?) async throws {
        var request = AudioOnlyRequest(
            input: playlist, poster: poster, posterName: image.map { PathString.lastComponent($0) } ?? "",
            destination: output.map { .folder($0) } ?? .inPlace, configuration: configuration)
        request.audioBitRate = audioBitrate.map { $0 * 1000 }
        request.audioFrom = audioFrom
        request.force = force
        request.replace = replace
        request.name = variantName
        request.fit = fit
        request.posterFromVideo = posterFromVideo
        request.posterDescription = description
        request.remove = remove
        request.wait = wait
        request.report = { printError("hlscheck: \(TerminalText.escaped($0))") }
        request.writeStepHook = Self.testHook()
        let outcome: AudioOnlyOutcome
        do {
            outcome = try await AudioOnlyVariantBuilder(request).run()
        } catch {
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        switch outcome.action {
        case .alreadyPresent:
            print(
                "\(TerminalText.escaped(playlist)) already has an audio-only variant that does its job: \(TerminalText.escaped(outcome.existing ?? outcome.variantURI ?? "")); nothing was written (hlscheck embed --image changes its poster)"
            )
            return
        case .nothingToRemove:
            print("\(TerminalText.escaped(playlist)) has no audio-only variant that hlscheck added: nothing to remove")
            return
        case .removed:
            print("removed the audio-only variant \(TerminalText.escaped(outcome.variantURI ?? "")) and its files")
        case .added, .rebuilt, .replaced:
            if let fitted = outcome.fittedImage { print("re-encoded \(posterSourceName): \(fitted)") }
            if !outcome.replaced.isEmpty {
                print(
                    "replaced the audio-only variant \(outcome.replaced.map { TerminalText.escaped($0) }.joined(separator: ", ")) in the multivariant playlist (its files stay: other playlists may use them)"
                )
            }
            print(
                "\(outcome.action == .rebuilt ? "rebuilt" : "added") the audio-only variant \(TerminalText.escaped(outcome.variantURI ?? "")) from \(TerminalText.escaped(outcome.source ?? "?")): \(outcome.segments) segments, CODECS=\"\(outcome.codecs ?? "")\", BANDWIDTH=\(outcome.peak ?? 0), AVERAGE-BANDWIDTH=\(outcome.average ?? 0)"
            )
            for line in outcome.arithmetic { print("  \(line)") }
            if let offset = outcome.largestStartOffset {
                print("  segment starts: within \(fixedPoint(offset * 1000, decimals: 1)) ms of the source's")
            }
        }
        print("wrote \(TerminalText.escaped(outcome.output))\n")
        if let verification = outcome.verification {
            try finish(verification, outcome.verdict, output: outcome.output)
        }
    }

    /// How "re-encoded …" names the poster: the image file, or the frame taken from the video.
    var posterSourceName: String {
        if let image { return image }
        return posterFromVideo == nil ? "the image" : "the video frame"
    }

    var configuration: CheckConfiguration {
        var configuration = CheckConfiguration(audioOnlyBudget: SettingBounds.audioOnlyBudget(kbps: budgetKbps))
        limitOptions.apply(to: &configuration)
        return configuration
    }

    /// Debug builds only, for the test suite: `HLSCHECK_TEST_KILL_AT_STEP=n` kills the process with
    /// SIGKILL at writing step n, `HLSCHECK_TEST_STOP_AT_STEP=n` stops it with SIGSTOP there, and
    /// `HLSCHECK_TEST_COUNT_STEPS=1` prints how many steps the run took.
    static func testHook() -> (@Sendable (Int) -> Void)? {
        #if DEBUG
        let environment = ProcessInfo.processInfo.environment
        let kill = environment["HLSCHECK_TEST_KILL_AT_STEP"].flatMap(Int.init)
        let stop = environment["HLSCHECK_TEST_STOP_AT_STEP"].flatMap(Int.init)
        let count = environment["HLSCHECK_TEST_COUNT_STEPS"] == "1"
        guard kill != nil || stop != nil || count else { return nil }
        return { step in
            if step == kill { raise(SIGKILL) }
            if step == stop { raise(SIGSTOP) }
            if count { printError("hlscheck: test: step \(step)") }
        }
        #else
        return nil
        #endif
    }

    /// Reads and checks the image before anything else happens.
    func loadPoster(_ path: String) throws -> Poster {
        // A regular file only (a FIFO would block), of at most 64 MiB.
        let data: [UInt8]
        do {
            data = try RegularFile(path: path).readAll(maximumBytes: 64 << 20, limitHint: "a smaller image")
        } catch {
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        do {
            let poster = try Poster(image: data, description: description)
            if case .failure(let failure) = PosterDecoder.decode(
                poster.data, mimeType: poster.mimeType, maximumPixels: limitOptions.limits.imagePixels)
            {
                printError("hlscheck: \(path): does not decode as \(poster.mimeType): \(failure.description)")
                throw ExitCode(2)
            }
            return poster
        } catch let error as PackagingError {
            printError("hlscheck: \(path): \(error.description)")
            throw ExitCode(2)
        }
    }
}

extension EmbedCommand {
    /// What `--poster-from-video` means when its TIME is left out.
    static let defaultPosterTime = "10%"

    /// `--poster-from-video` may come without its TIME (`embed --poster-from-video master.m3u8
    /// --output out`), which swift-argument-parser cannot express: an option either always or
    /// never takes a value. `arguments` (without the program name) with the default TIME put
    /// in wherever the word after the option is not a time.
    static func withDefaultPosterTime(_ arguments: [String]) -> [String] {
        guard arguments.first == "embed" else { return arguments }
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            result.append(argument)
            // After "--" every word is an argument, never an option.
            if argument == "--" { return result + arguments[(index + 1)...] }
            guard argument == "--poster-from-video" else { continue }
            let next: String? = index + 1 < arguments.count ? arguments[index + 1] : nil
            if let next, PosterFrameTime(next) != nil || looksLikeTime(next) { continue }
            result.append(defaultPosterTime)
        }
        return result
    }

    /// A word meant as TIME but malformed (`1e20`, `-5`, `120%`): left for the parser, which
    /// refuses it as the option's value, rather than taken for the playlist.
    static func looksLikeTime(_ word: String) -> Bool {
        if word.hasSuffix("%") { return true }
        // A sign or a point before a digit: `-5`, `.5`; never an option such as `--output`.
        let digits = word.drop { "+-.".contains($0) }
        guard digits.first?.isNumber == true else { return false }
        return !word.contains("/") && !word.lowercased().hasSuffix(".m3u8") && !word.lowercased().hasSuffix(".m3u")
    }
}
