import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import HLSCheck
package import HLSPackaging
package import HLSPlaylist
import MediaFormats
import MediaInspection
import MediaEncoding

/// What `hlscheck embed --add-audio-only` was asked to do.
package struct AudioOnlyRequest: Sendable {
    /// The multivariant playlist.
    package var input: String
    /// The poster for every segment of the new variant; nil: none.
    package var poster: Poster?
    package var posterName: String
    package var destination: EmbedRequest.Destination
    /// The AAC bit rate (bit/s); nil: the highest that fits the budget with the poster.
    package var audioBitRate: Int?
    /// The variant or audio rendition to take the audio from (URI as written or resolved).
    package var audioFrom: String?
    /// The new variant's playlist, relative to the multivariant playlist ("DIR/PLAYLIST");
    /// nil: `audio-only/index.m3u8`.
    package var name: String?
    /// Rebuild the variant when it is there already (never a licence to exceed the budget).
    package var force = false
    /// Replace an audio-only variant that does not do its job (over the budget, without the
    /// poster) with the new one, in its place in the multivariant playlist.
    package var replace = false
    /// Shrink the poster when audio, container and poster do not fit.
    package var fit = false
    /// Take the poster from the stream's own video at this time instead of `poster`
    /// (`--poster-from-video`); it is fitted to the budget as with `fit`.
    package var posterFromVideo: PosterFrameTime?
    /// The APIC description of a poster taken from the video.
    package var posterDescription = ""
    /// Drop the variant an earlier run added.
    package var remove = false
    package var configuration: CheckConfiguration
    package var wait = false
    package var report: @Sendable (String) -> Void = { _ in }
    package var writeStepHook: (@Sendable (Int) -> Void)?

    package init(
        input: String, poster: Poster?, posterName: String, destination: EmbedRequest.Destination,
        configuration: CheckConfiguration = CheckConfiguration()
    ) {
        self.input = input
        self.poster = poster
        self.posterName = posterName
        self.destination = destination
        self.configuration = configuration
    }
}

/// What `--add-audio-only` did.
package struct AudioOnlyOutcome: Sendable {
    package enum Action: String, Sendable { case added, rebuilt, replaced, alreadyPresent, removed, nothingToRemove }
    package var action: Action
    /// The playlist to give players (the written copy of the input, or the input).
    package var output: String
    /// The new variant's URI as written in the multivariant playlist.
    package var variantURI: String?
    /// The playlist the audio came from.
    package var source: String?
    package var segments = 0
    package var audioBitRate: Int?
    package var peak: Int?
    package var average: Int?
    package var codecs: String?
    /// The bit-rate arithmetic, one line each, for the user.
    package var arithmetic: [String] = []
    package var fittedImage: String?
    /// How the new segments line up with the source: the largest |first PTS − source first PTS| (s).
    package var largestStartOffset: Double?
    package var verification: CheckReport?
    /// The re-check's findings split into those in what was written and those that were in the
    /// stream before (docs/embed.md, "Exit code").
    package var verdict = EmbedVerdict(written: [], before: [])
    /// `alreadyPresent`: why the variant there does its job ("… peaks at 51.2 kbit/s within …").
    package var existing: String?
    /// `replaced`: the URIs of the audio-only variants whose entries the new one took.
    package var replaced: [String] = []
    /// The languages of the new variant's AUDIO group, default first; empty for one rendition.
    package var languages: [String] = []
}

/// `hlscheck embed --add-audio-only`: creates the audio-only variant a stream lacks — the
/// source's audio decoded, resampled and encoded as AAC-LC within the budget, cut on the source's
/// segment boundaries, in the container the stream uses, with the poster in every segment — and
/// adds it to the multivariant playlist, through the same writer as `embed` (new files first,
/// the input playlist swapped in last, lock and journal).
package struct AudioOnlyVariantBuilder: Sendable {
    /// Where the new variant goes without `--name`, beside the multivariant playlist.
    package static let defaultName = "audio-only/index.m3u8"
    /// The folder earlier versions wrote the variant into, and the one used when
    /// `audio-only/index.m3u8` belongs to someone else: a variant there is ours.
    package static let folderName = "hlscheck-audio-only"
    /// The comment line (RFC 8216 §4.1) that marks a media playlist this command wrote, so that
    /// `--remove` and `--force` find it under any `--name`.
    package static let marker = "# written by hlscheck embed --add-audio-only"
    /// Below this the AAC-LC encoder makes mush; `--audio-bitrate` takes nothing lower.
    package static let minimumBitRate = 16_000
    /// The rates `--add-audio-only` chooses from, lowest first: the steps of common AAC-LC
    /// ladders. FFmpeg's native `aac` encoder (the one libavcodec has here) makes AAC-LC only —
    /// no HE-AAC (SBR), which would sound better at the lowest rungs.
    static let standardRates = [24_000, 32_000, 40_000, 48_000, 56_000, 64_000, 80_000, 96_000, 112_000, 128_000]
    /// Two channels from here up (the source's, when it has two or more); below it one: 12
    /// kbit/s per channel leaves AAC-LC too little to code.
    static let stereoRate = 32_000
    /// The audio `--fit` keeps beside the re-encoded poster when `--audio-bitrate` is not given.
    static let fitRate = 32_000

    package var request: AudioOnlyRequest

    package init(_ request: AudioOnlyRequest) {
        self.request = request
    }

    package func run() async throws(EmbedError) -> AudioOnlyOutcome {
        let lock =
            request.destination == .inPlace
            ? try StreamWriter.lockInPlace(request.input, wait: request.wait, report: request.report) : nil
        defer { lock?.release() }
        let analysis = try await StreamWriter.analyse(request.input, configuration: request.configuration)
        return try await run(analysed: analysis, lock: lock)
    }

    /// What `run()` does once the stream is analysed (and, in place, locked).
    func run(analysed analysis: StreamAnalysis, lock: StreamLock?) async throws(EmbedError) -> AudioOnlyOutcome {
        guard let multivariantPlaylist = analysis.multivariant else {
            throw EmbedError(
                "\(request.input): a media playlist; --add-audio-only adds a variant to a multivariant playlist")
        }
        let ours = multivariantPlaylist.variants.filter { isOurs($0, analysis) }
        let layout = try StreamLayout(analysis)
        let multivariantBytes = try readPlaylist(analysis.loaded.rootURI, layout: layout)
        let prior = PriorFindings(Checker(configuration: request.configuration).diagnose(analysis), root: layout.root)
        func verdict(_ report: CheckReport, _ output: String) -> EmbedVerdict {
            let split = prior.split(report.diagnostics, root: layout.outputRoot(output))
            return EmbedVerdict(written: split.written, before: split.before)
        }

        if request.remove {
            guard !ours.isEmpty else {
                return AudioOnlyOutcome(action: .nothingToRemove, output: request.input)
            }
            var multivariant = multivariantBytes
            let ranges = ours.map { $0.line...$0.uriLine } + ownRenditionLines(analysis)
            for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) {
                multivariant = Self.removingLines(range, from: multivariant)
            }
            let output = try write(
                layout: layout, multivariant: multivariant, lock: lock, additions: [],
                dropped: ownFiles(analysis, layout))
            lock?.release()
            var outcome = AudioOnlyOutcome(action: .removed, output: output, variantURI: ours.first?.uri)
            let verification = try await recheck(output, layout: layout)
            outcome.verification = verification
            outcome.verdict = verdict(verification, output)
            return outcome
        }
        // The audio-only variants already there: a valid one is kept as it is; an invalid one
        // is rebuilt in its place only when asked (--replace; --force for one this command added).
        let budget = request.configuration.audioOnlyBudget
        let present = analysis.variants.filter(\.isAudioOnly).compactMap {
            variant -> (stream: VariantStream, problems: [String])? in
            variant.stream.map { ($0, problems(of: variant, budget: budget)) }
        }
        if let valid = present.first(where: { $0.problems.isEmpty }), !(request.force && isOurs(valid.stream, analysis))
        {
            var outcome = AudioOnlyOutcome(action: .alreadyPresent, output: request.input, variantURI: valid.stream.uri)
            outcome.existing = validDescription(valid.stream, analysis, budget: budget)
            return outcome
        }
        let invalid = present.filter { !$0.problems.isEmpty && !isOurs($0.stream, analysis) }
        if !invalid.isEmpty, !request.replace {
            let reasons = invalid.map { "\($0.stream.uri): \($0.problems.joined(separator: "; "))" }.joined(
                separator: " — ")
            throw EmbedError(
                "\(request.input) has an audio-only variant that does not do its job (\(reasons)); nothing was written: --replace builds a new one in its place (its entry in the multivariant playlist is replaced, its files stay), or fix it with hlscheck embed --image"
            )
        }
        if let existing = ours.first, !request.force, invalid.isEmpty,
            let problems = present.first(where: { $0.stream.uri == existing.uri })?.problems, !problems.isEmpty
        {
            throw EmbedError(
                "\(request.input): the audio-only variant \(existing.uri) that hlscheck added does not do its job (\(problems.joined(separator: "; "))); nothing was written: --force rebuilds it"
            )
        }
        let replaced = request.replace ? invalid.map(\.stream) : []
        if request.posterFromVideo != nil {
            // Taken only now that a variant is to be built: a run that writes nothing decodes nothing.
            var resolved = self
            try resolved.request.takePosterFromVideo(analysis)
            return try await resolved.run(analysed: analysis, lock: lock)
        }

        var source = try selectSource(analysis)
        // Several languages in the source's AUDIO group: one low-rate rendition per language,
        // the default one first (docs/embed.md, "Languages").
        let languages = request.audioFrom == nil ? languageGroup(analysis, containing: source) : []
        if let first = languages.first { source = first.source }
        if request.destination == .inPlace, !source.playlist.endList {
            throw StreamWriter.stillWritten(source.playlistURI)
        }
        let segments = source.playlist.segments
        try preflight(source, segments)
        let container = try variantContainer(source.measurement)
        // Records are in the order of the segments (GAP segments have none, and are refused).
        let inputs = Self.inputs(source)
        let targetDuration = source.playlist.targetDuration ?? Int(segments.map(\.duration).max()?.rounded(.up) ?? 1)
        // Packed audio without timestamps starts where the stream's other playlists start.
        let timelineStart = SegmentSession.timelineStart(
            analysis, sequence: segments.first?.mediaSequence ?? source.playlist.mediaSequence,
            excluding: source.playlistURI)

        let encode = { (rate: Int, poster: Poster?) throws(EmbedError) -> BuiltVariant in
            try build(
                inputs, container: container, rate: rate, poster: poster, segments: segments,
                targetDuration: targetDuration, timelineStart: timelineStart)
        }
        let choice = try chooseRate(encode, container: container, segments: segments, budget: budget, source: source)
        let built = choice.built, poster = choice.poster
        var arithmetic = Self.arithmetic(choice, budget: budget, container: container)

        let others = try otherLanguages(
            languages, beside: built, poster: poster, source: source, container: container, budget: budget,
            analysis: analysis)
        if !others.isEmpty {
            let peaks = ([built] + others.map(\.built)).map(\.peak)
            arithmetic.append(
                "\(others.count + 1) languages (\(languages.compactMap { $0.rendition.language }.joined(separator: ", "))), each its own rendition at \(Self.kbps(built.rate)): peaks \(peaks.map { Self.kbps($0) }.joined(separator: ", ")); a player plays one of them"
            )
        }

        let placed = try newFiles(
            built, others: others, languages: languages, source: source, container: container, layout: layout,
            ours: ours, analysis: analysis)
        let additions = placed.additions, lines = placed.lines, variantURI = placed.variantURI
        let codecs = built.audio.codecString

        let replacing = ours.sorted { $0.line > $1.line }
        let multivariant = editedMultivariant(
            multivariantBytes, adding: lines, replacing: replacing, replaced: replaced, analysis: analysis)
        let dropped = replacing.isEmpty ? [] : ownFiles(analysis, layout)
        let output = try write(
            layout: layout, multivariant: multivariant, lock: lock, additions: additions, dropped: dropped)
        lock?.release()

        var outcome = AudioOnlyOutcome(
            action: !replaced.isEmpty ? .replaced : replacing.isEmpty ? .added : .rebuilt, output: output,
            variantURI: variantURI)
        outcome.replaced = replaced.map(\.uri)
        outcome.source = source.uri
        outcome.segments = built.segments.count
        outcome.audioBitRate = built.rate
        outcome.peak = ([built] + others.map(\.built)).map(\.peak).max()
        outcome.average = ([built] + others.map(\.built)).map(\.average).max()
        outcome.codecs = codecs
        outcome.languages = languages.compactMap { $0.rendition.language }
        outcome.arithmetic = arithmetic
        outcome.fittedImage = choice.fitted
        outcome.largestStartOffset = zip(built.audio.firstPTS, built.audio.sourceFirstPTS).map {
            Double(abs($0 - $1)) / 90_000
        }.max()
        let verification = try await recheck(output, layout: layout)
        outcome.verification = verification
        outcome.verdict = verdict(verification, output)
        return outcome
    }

    // MARK: - Source

    /// The new variant's files (segments named after their bytes, so a rebuild never overwrites
    /// what the current playlist references; the playlist under --name, docs/embed.md) and the
    /// lines the multivariant playlist gets: one EXT-X-STREAM-INF, or with several languages an
    /// AUDIO group of one rendition per language and the variant that references it.
    func newFiles(
        _ built: BuiltVariant, others: [(language: LanguageRendition, built: BuiltVariant)],
        languages: [LanguageRendition], source: Source, container: AudioVariantContainer, layout: StreamLayout,
        ours: [VariantStream], analysis: StreamAnalysis
    ) throws(EmbedError) -> (additions: [StreamWriter.Addition], lines: [String], variantURI: String) {
        let multivariantFolder = PathString.parent(analysis.loaded.rootURI)
        func files(_ variant: BuiltVariant, from: Source) throws(EmbedError) -> (
            additions: [StreamWriter.Addition], playlist: [UInt8]
        ) {
            var additions: [StreamWriter.Addition] = []
            var names: [String] = []
            for (index, bytes) in variant.segments.enumerated() {
                let name = SegmentName.renamed("audio\(index).\(container.fileExtension)", bytes: bytes)
                names.append(name)
                additions.append(.init(file: name, bytes: bytes, isPlaylist: false))
            }
            var initName: String?
            if let initSection = variant.audio.initSection {
                let name = SegmentName.renamed("init.mp4", bytes: initSection)
                initName = name
                additions.append(.init(file: name, bytes: initSection, isPlaylist: false))
            }
            let sourceBytes = try readPlaylist(from.playlistURI, layout: layout)
            return (
                additions,
                Self.mediaPlaylist(
                    from: sourceBytes, playlist: from.playlist, names: names, initName: initName,
                    durations: variant.durations, targetDuration: variant.targetDuration)
            )
        }
        func place(
            _ files: (additions: [StreamWriter.Addition], playlist: [UInt8]), in relative: String,
            as playlistName: String
        ) -> String {
            let folder = layout.relative(PathString.join(multivariantFolder, relative))
            additions += files.additions.map {
                .init(file: Tree.join(folder, $0.file), bytes: $0.bytes, isPlaylist: $0.isPlaylist)
            }
            additions.append(.init(file: Tree.join(folder, playlistName), bytes: files.playlist, isPlaylist: true))
            return relative.isEmpty ? playlistName : relative + "/" + playlistName
        }
        var additions: [StreamWriter.Addition] = []
        let main = try files(built, from: source)
        let (relativeFolder, playlistName) = try newVariantName(
            multivariantFolder: multivariantFolder, ours: ours, mediaPlaylist: main.playlist)
        let codecs = built.audio.codecString
        var lines: [String] = []
        let variantURI: String
        if others.isEmpty {
            variantURI = place(main, in: relativeFolder, as: playlistName)
            lines = [
                "#EXT-X-STREAM-INF:BANDWIDTH=\(built.peak),AVERAGE-BANDWIDTH=\(built.average),CODECS=\"\(codecs)\"",
                variantURI,
            ]
        } else {
            // One folder per language under the variant's; an AUDIO group of the renditions, the
            // variant's own playlist the first (default) one's.
            let group = uniqueGroupID(analysis)
            var uris: [String] = []
            for (index, (language, variant)) in ([(languages[0], built)] + others.map { ($0.language, $0.built) })
                .enumerated()
            {
                let from = index == 0 ? source : language.source
                let content = index == 0 ? main : try files(variant, from: from)
                let folder = Tree.join(
                    relativeFolder, Self.folderName(forLanguage: language.rendition.language, index: index))
                let existing = FileManager.default.contents(
                    atPath: PathString.join(multivariantFolder, Tree.join(folder, playlistName)))
                let name =
                    existing.map { [UInt8]($0) == content.playlist } ?? true
                    ? playlistName : SegmentName.renamed(playlistName, bytes: content.playlist)
                let uri = place(content, in: folder, as: name)
                uris.append(uri)
                lines.append(
                    Self.mediaLine(language.rendition, group: group, channels: variant.audio.channels, uri: uri))
            }
            variantURI = uris[0]
            let all = [built] + others.map(\.built)
            lines += [
                "#EXT-X-STREAM-INF:BANDWIDTH=\(all.map(\.peak).max() ?? 0),AVERAGE-BANDWIDTH=\(all.map(\.average).max() ?? 0),CODECS=\"\(codecs)\",AUDIO=\"\(group)\"",
                variantURI,
            ]
        }

        return (additions, lines, variantURI)
    }

    /// The bit rate and poster of the new variant, with why they were chosen.
    struct RateChoice {
        var built: BuiltVariant
        var poster: Poster?
        /// Why this rate: "as --audio-bitrate asked", "the highest of … whose peak fits" …
        var why: String
        /// What the next rung up would have needed (nil when none was measured).
        var nextStep: String?
        /// How --fit re-encoded the poster, when it did.
        var fitted: String?
    }

    func chooseRate(
        _ encode: (Int, Poster?) throws(EmbedError) -> BuiltVariant, container: AudioVariantContainer,
        segments: [MediaSegment], budget: Int, source: Source
    ) throws(EmbedError) -> RateChoice {
        let targetDuration = source.playlist.targetDuration ?? Int(segments.map(\.duration).max()?.rounded(.up) ?? 1)
        // Choose the bit rate (docs/embed.md, "The bit rate"): the highest rung of the ladder
        // whose peak, poster included, fits the budget — estimated first (estimatedPeak), then
        // encoded and measured as the checker measures (BitrateWindow); the measurement decides.
        var poster = request.poster
        var fitted: String?
        var built: BuiltVariant
        var why: String
        var nextStep: String?
        if let asked = request.audioBitRate {
            built = try encode(asked, poster)
            why = "as --audio-bitrate asked"
        } else {
            let ladder = Self.standardRates
            var index =
                ladder.lastIndex {
                    Self.estimatedPeak(
                        rate: $0, poster: poster, segments: segments, targetDuration: targetDuration,
                        container: container) <= budget
                } ?? 0
            var best: BuiltVariant?
            var above: BuiltVariant?  // the lowest rung measured over the budget
            var tried: [BuiltVariant] = []
            while true {
                let candidate = try encode(ladder[index], poster)
                tried.append(candidate)
                if candidate.peak <= budget {
                    best = candidate
                    let up = index + 1
                    // One rung up when this measurement says it may fit too (2 % for the
                    // encoder's spread): the estimate is only the first guess.
                    guard up < ladder.count, above?.rate != ladder[up],
                        Self.projectedPeak(candidate, rate: ladder[up]) <= budget + budget / 50
                    else { break }
                    index = up
                    continue
                }
                above = candidate
                guard best == nil, index > 0 else { break }
                index -= 1
            }
            guard let chosen = best ?? tried.min(by: { $0.rate < $1.rate }) else {
                throw EmbedError("\(source.uri): no AAC bit rate was tried")
            }
            built = chosen
            why =
                "the highest of \(ladder.map { String($0 / 1000) }.joined(separator: ", ")) kbit/s whose peak\(poster == nil ? "" : " with the poster") fits"
            if best != nil {
                nextStep = nextStepNote(
                    after: chosen, above: above, budget: budget, poster: poster, container: container)
            }
        }
        if built.peak > budget {
            // Nothing fits with this poster: shrink it (--fit) beside the audio asked for, or
            // 32 kbit/s (the lowest stereo rung).
            guard request.fit, let image = poster else {
                throw EmbedError(
                    refusal(built, budget: budget)
                        + ": use a smaller image, --fit to re-encode it, or a lower --audio-bitrate")
            }
            let rate = request.audioBitRate ?? Self.fitRate
            let bare = try encode(rate, nil)
            let bytes = Self.largestImage(
                budget: budget, bareSizes: bare.bareSizes, durations: bare.durations,
                targetDuration: bare.targetDuration, image: image, container: container)
            guard bytes > 0, let smaller = try request.reencode(image, maxBytes: bytes) else {
                throw EmbedError(
                    "\(refusal(built, budget: budget)); and no re-encoding of the image fits beside \(rate / 1000) kbit/s of audio (\(bytes > 0 ? "at most \(bytes) bytes would fit; " : "not even a 1-byte image fits; ")--fit searches JPEG quality, then smaller sizes; \(request.fitFloor(image)))"
                )
            }
            poster = smaller.poster
            fitted = smaller.description
            built = try encode(rate, poster)
            why = "\(rate / 1000) kbit/s, beside which --fit re-encoded the poster"
            nextStep = nil
            guard built.peak <= budget else {
                throw EmbedError(
                    refusal(built, budget: budget) + " even with the poster re-encoded (\(smaller.description))")
            }
        }
        return RateChoice(built: built, poster: poster, why: why, nextStep: nextStep, fitted: fitted)
    }

    /// How the peak adds up, line by line: audio, container, poster, the total against the budget.
    static func arithmetic(_ choice: RateChoice, budget: Int, container: AudioVariantContainer) -> [String] {
        let built = choice.built, why = choice.why
        var lines: [String] = []
        let overhead = built.peakWithoutPoster - built.audioPeak
        let channels =
            built.audio.channels == 1
            ? (built.rate < Self.stereoRate ? "mono below \(Self.stereoRate / 1000) kbit/s" : "mono, as the source")
            : "stereo"
        lines.append(
            "audio \(Self.kbps(built.rate)) (AAC-LC, \(channels), \(built.audio.sampleRate) Hz; measured peak \(Self.kbps(built.audioPeak))): \(why)"
        )
        lines.append(
            "+ \(container == .adts ? "ADTS framing and the ID3 timestamp" : container == .mpegTS ? "MPEG-TS packets, PES headers, PAT/PMT" : "moof/mdat boxes") \(Self.kbps(overhead))"
        )
        if let poster = choice.poster {
            if let runt = Self.finalRunt(built.durations, targetDuration: built.targetDuration) {
                lines.append(
                    "+ poster \(poster.data.count) bytes in every segment but the last \(Self.kbps(built.peak - built.peakWithoutPoster)) (the last, \(fixedPoint(built.durations[runt], decimals: 3)) s, is under half the \(built.targetDuration) s target duration: no peak window measures it alone, so it goes without the poster; docs/measurement.md, \"Runt segments\")"
                )
            } else {
                lines.append(
                    "+ poster \(poster.data.count) bytes in every segment \(Self.kbps(built.peak - built.peakWithoutPoster))"
                )
            }
        }
        lines.append(
            "= peak \(Self.kbps(built.peak)) (average \(Self.kbps(built.average))) within the \(Self.kbps(budget)) budget"
        )
        if let nextStep = choice.nextStep { lines.append(nextStep) }

        return lines
    }

    /// The other languages, at the rate chosen for the first, with the same poster: each is cut
    /// like the first and fits the budget on its own.
    func otherLanguages(
        _ languages: [LanguageRendition], beside built: BuiltVariant, poster: Poster?, source: Source,
        container: AudioVariantContainer, budget: Int, analysis: StreamAnalysis
    ) throws(EmbedError) -> [(language: LanguageRendition, built: BuiltVariant)] {
        let segments = source.playlist.segments
        let targetDuration = source.playlist.targetDuration ?? Int(segments.map(\.duration).max()?.rounded(.up) ?? 1)
        var others: [(language: LanguageRendition, built: BuiltVariant)] = []
        for language in languages.dropFirst() {
            let other = language.source
            try preflight(other, other.playlist.segments)
            guard other.playlist.segments.map(\.duration) == segments.map(\.duration),
                try variantContainer(other.measurement) == container
            else {
                throw EmbedError(
                    "\(other.uri) (\(language.rendition.language ?? "?")): its segments are not cut like \(source.uri)'s (the same EXTINF, the same container); an audio-only group needs renditions that switch segment for segment — use --audio-from to build from one of them"
                )
            }
            let start = SegmentSession.timelineStart(
                analysis, sequence: other.playlist.segments.first?.mediaSequence ?? other.playlist.mediaSequence,
                excluding: other.playlistURI)
            let candidate = try build(
                Self.inputs(other), container: container, rate: built.rate, poster: poster, segments: segments,
                targetDuration: targetDuration, timelineStart: start)
            guard candidate.peak <= budget else {
                throw EmbedError(
                    "\(other.uri) (\(language.rendition.language ?? "?")): \(refusal(candidate, budget: budget)) at the rate chosen for \(source.uri); use --audio-bitrate to choose a lower one for every language"
                )
            }
            others.append((language, candidate))
        }
        return others
    }

    /// The multivariant playlist with `lines` added: in the place of the variant replaced, else
    /// at the end; the variant this command added before, and its renditions, removed.
    func editedMultivariant(
        _ multivariantBytes: [UInt8], adding lines: [String], replacing: [VariantStream], replaced: [VariantStream],
        analysis: StreamAnalysis
    ) -> [UInt8] {
        var multivariant = multivariantBytes
        var removedLines = (replacing + replaced).map { $0.line...$0.uriLine }
        if !replacing.isEmpty { removedLines += ownRenditionLines(analysis) }
        for range in removedLines.sorted(by: { $0.lowerBound > $1.lowerBound }) {
            multivariant = Self.removingLines(range, from: multivariant)
        }
        if let place = replaced.min(by: { $0.line < $1.line }) {
            // In the place of the variant it replaces: the lines before it are as they were.
            let before = removedLines.filter { $0.lowerBound < place.line }.reduce(0) { $0 + $1.count }
            multivariant = Self.insertingLines(lines, atLine: place.line - before, into: multivariant)
        } else {
            multivariant = Self.appendingLines(lines, to: multivariant)
        }
        return multivariant
    }

    struct Source {
        var uri: String
        var playlistURI: String
        var playlist: MediaPlaylist
        var measurement: PlaylistMeasurement
    }

    /// `--audio-from`, or the best audio: an audio rendition before muxed audio (no video to
    /// read past), the rendition with the highest measured bit rate; else the smallest variant
    /// with audio (ladders carry the same audio in every variant).
    func selectSource(_ analysis: StreamAnalysis) throws(EmbedError) -> Source {
        var candidates: [(source: Source, rank: Int, rendition: Bool)] = []
        var seen = Set<String>()
        var unread: [UnreadPlaylist] = []
        func add(_ uri: String, _ playlistURI: String?, _ playlist: MediaPlaylist?, rank: Int, rendition: Bool) {
            // A rendition without URI is audio in the variant's own segments, not a playlist.
            guard let playlistURI else { return }
            guard let playlist, let measurement = analysis.measurements[playlistURI] else {
                unread.append(UnreadPlaylist(uri: uri, playlistURI: playlistURI))
                return
            }
            guard seen.insert(playlistURI).inserted, measurement.records.contains(where: \.hasAudio) else { return }
            candidates.append(
                (
                    Source(uri: uri, playlistURI: playlistURI, playlist: playlist, measurement: measurement), rank,
                    rendition
                ))
        }
        for variant in analysis.variants where !(variant.stream.map { isOurs($0, analysis) } ?? false) {
            for rendition in variant.audioRenditions {
                add(
                    rendition.rendition.uri ?? rendition.playlistURI ?? "", rendition.playlistURI, rendition.playlist,
                    rank: -(rendition.measurement?.averageBitrate ?? 0), rendition: true)
            }
            add(
                variant.uri, variant.playlistURI, variant.playlist, rank: variant.declaredBandwidth ?? Int.max,
                rendition: false)
        }
        if let wanted = request.audioFrom {
            guard
                let match = candidates.first(where: {
                    $0.source.uri == wanted || $0.source.playlistURI == wanted
                        || StreamLayout.file($0.source.playlistURI) == wanted
                })
            else {
                let known = candidates.map(\.source.uri).joined(separator: ", ")
                throw EmbedError(
                    "--audio-from \(wanted) is not a variant or audio rendition of \(request.input) with audio (these are: \(known.isEmpty ? "none" : known))"
                )
            }
            return match.source
        }
        let best = candidates.min { a, b in
            if a.rendition != b.rendition { return a.rendition }
            return a.rank < b.rank
        }
        guard let best else {
            throw EmbedError(
                "\(request.input): no variant or audio rendition carries audio to make an audio-only variant from"
                    + analysis.notRead(unread))
        }
        return best.source
    }

    /// The source's segments as the transcoder reads them (records are in segment order: GAP
    /// segments have none, and are refused).
    static func inputs(_ source: Source) -> [AudioSourceSegment] {
        zip(source.playlist.segments, source.measurement.records).map { segment, record in
            // A single-file source (ffmpeg's `-hls_flags single_file`) is read range by range,
            // as the checker reads it: the segment is its EXT-X-BYTERANGE, the init section its
            // EXT-X-MAP BYTERANGE (RFC 8216 §4.3.2.2, §4.3.2.5).
            AudioSourceSegment(
                path: StreamLayout.file(URIResolver.resolve(segment.uri, against: source.playlistURI)),
                range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) },
                initSection: segment.map.map {
                    StreamLayout.file(URIResolver.resolve($0.uri, against: source.playlistURI))
                },
                initRange: segment.map?.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) },
                container: record.container ?? .unknown, discontinuity: segment.discontinuity)
        }
    }

    func preflight(_ source: Source, _ segments: [MediaSegment]) throws(EmbedError) {
        for (index, segment) in segments.enumerated() {
            let place = "\(StreamLayout.file(source.playlistURI)):\(segment.uriLine)"
            if segment.gap {
                throw EmbedError(
                    "\(place): segment \(segment.uri) is a GAP: the audio-only variant needs audio for every segment")
            }
            if let key = segment.key, key.isEncrypting {
                throw EmbedError(
                    "\(place): segment \(segment.uri) is encrypted (METHOD=\(key.method)): hlscheck cannot decode encrypted media"
                )
            }
            if index < source.measurement.records.count, let problem = source.measurement.records[index].problem {
                throw EmbedError("\(place): segment \(segment.uri) cannot be read: \(problem)")
            }
        }
    }

    func variantContainer(_ measurement: PlaylistMeasurement) throws(EmbedError) -> AudioVariantContainer {
        switch measurement.records.first?.container {
        case .mpegTS: return .mpegTS
        case .adts, .mp3, .ac3, .eac3: return .adts
        case .fragmentedMP4: return .fragmentedMP4
        case .webVTT, .unknown, nil:
            throw EmbedError(
                "\(StreamLayout.file(measurement.playlistURI)): its segments are in no container --add-audio-only can follow (MPEG-TS, packed audio, fMP4)"
            )
        }
    }

    // MARK: - Building and measuring

    struct BuiltVariant {
        var rate: Int
        var audio: TranscodedAudio
        /// Final segments (poster included).
        var segments: [[UInt8]]
        var peak: Int
        var average: Int
        var peakWithoutPoster: Int
        /// Sizes of the segments without the poster (the container's own bytes and the audio).
        var bareSizes: [Int]
        /// The AAC frames alone (no container), as the checker would measure them.
        var audioPeak: Int
        /// Each segment's EXTINF as the new playlist writes it (AS 8.1: the duration of the
        /// audio written into it, `extinfDurations`) and the target duration that holds them.
        var durations: [Double]
        var targetDuration: Int
    }

    func build(
        _ inputs: [AudioSourceSegment], container: AudioVariantContainer, rate: Int, poster: Poster?,
        segments: [MediaSegment], targetDuration: Int,
        timelineStart: Int64?
    ) throws(EmbedError) -> BuiltVariant {
        let audio: TranscodedAudio
        do {
            audio = try AudioTranscoder.transcode(
                inputs, container: container, bitRate: rate, maximumChannels: rate < 32_000 ? 1 : 2,
                timelineStart: timelineStart)
        } catch {
            throw EmbedError(error.description)
        }
        var final: [[UInt8]] = []
        var withoutPoster: [[UInt8]] = []
        var transportStream = TransportStreamPosterWriter()
        var bareTransportStream = TransportStreamPosterWriter()
        let durations = Self.extinfDurations(audio, source: segments)
        // RFC 8216 §4.3.3.1: every EXTINF, rounded to the nearest integer, within the target
        // duration; audio that runs a frame or two past a source segment may need one more second.
        let targetDuration = max(targetDuration, durations.map { Int($0.rounded()) }.max() ?? 0)
        let runt = Self.finalRunt(durations, targetDuration: targetDuration)
        do {
            for (index, bytes) in audio.segments.enumerated() {
                // A final runt goes without the poster (docs/measurement.md, "Runt segments").
                let poster = index == runt ? nil : poster
                switch container {
                case .mpegTS:
                    final.append(try transportStream.rewrite(bytes, poster: poster))
                    withoutPoster.append(try bareTransportStream.rewrite(bytes, poster: nil))
                case .adts:
                    // RFC 8216 §3.4: the PRIV timestamp of the first frame, on the source's timeline.
                    final.append(
                        try PackedAudioPosterWriter.rewrite(
                            bytes, poster: poster, timestampIfMissing: audio.firstPTS[index]))
                    withoutPoster.append(
                        try PackedAudioPosterWriter.rewrite(
                            bytes, poster: nil, timestampIfMissing: audio.firstPTS[index]))
                case .fragmentedMP4:
                    final.append(
                        poster == nil
                            ? bytes
                            : try FragmentedMP4PosterWriter.rewrite(
                                bytes, initSection: audio.initSection, poster: poster))
                    withoutPoster.append(bytes)
                }
            }
        } catch {
            throw EmbedError("cannot put the poster into the new segments: \(error.description)")
        }
        func measure(_ sizes: [Int]) -> (peak: Int, average: Int) {
            let windows = zip(durations, sizes).map { BitrateWindow.Segment(bytes: $1, duration: $0) }
            return (
                BitrateWindow.peak(windows, targetDuration: targetDuration) ?? 0, BitrateWindow.average(windows) ?? 0
            )
        }
        let measured = measure(final.map(\.count))
        let bare = measure(withoutPoster.map(\.count))
        let frames = measure(audio.frameBytes)
        return BuiltVariant(
            rate: rate, audio: audio, segments: final, peak: measured.peak, average: measured.average,
            peakWithoutPoster: bare.peak, bareSizes: withoutPoster.map(\.count), audioPeak: frames.peak,
            durations: durations, targetDuration: targetDuration)
    }

    /// The EXTINF of each new segment: the duration of the audio written into it — its AAC
    /// frames × 1024 samples, what a demuxer measures from their timestamps — as the playlist
    /// writes it (six decimals, read back as the checker reads them), so that a run of segments
    /// never drifts from its EXTINF (AS 8.1). The frames are cut on the source's boundaries
    /// (bis-22 §6.2.4), but a source muxed with video holds audio cut at the video's keyframes:
    /// its EXTINF is the video's, up to a few frames off the audio's. Where the source's EXTINF
    /// says the same to the microsecond, it is kept as it was (its line stays byte for byte); a
    /// segment without a frame keeps the source's (nothing to measure).
    static func extinfDurations(_ audio: TranscodedAudio, source segments: [MediaSegment]) -> [Double] {
        zip(audio.durations, segments).map { measured, segment in
            let written = fixedPoint(measured, decimals: 6)
            guard measured > 0, written != fixedPoint(segment.duration, decimals: 6) else { return segment.duration }
            return Double(written) ?? measured
        }
    }

    /// The final runt of the new segments, the one the poster leaves out; nil when none.
    static func finalRunt(_ durations: [Double], targetDuration: Int) -> Int? {
        guard let last = durations.last,
            BitrateWindow.isFinalRunt(duration: last, count: durations.count, targetDuration: targetDuration)
        else { return nil }
        return durations.count - 1
    }

    /// Where the poster goes in the new segments (PosterBudget): a timed-ID3 PES of its own in
    /// MPEG-TS, the leading tag (with the timestamp) of packed audio, a new `emsg` in fMP4.
    static func posterLayout(_ container: AudioVariantContainer) -> PosterBudget.Layout {
        switch container {
        case .mpegTS: return .transportStream(otherTagBytes: nil)
        case .adts: return .inExistingTag
        case .fragmentedMP4: return .newEventMessage
        }
    }

    /// The peak an encoding at `rate` is expected to have, before encoding: the audio plus the
    /// container (MPEG-TS ≈ 12 %: packet and PES headers, PAT/PMT per segment; ADTS and fMP4
    /// ≈ 2 %), 3 % for the encoder's peaks over its average, and the poster in every segment but
    /// a final runt, over the same peak windows the checker measures (BitrateWindow). A good
    /// estimate saves an encoding; the measurement of the encoding decides.
    static func estimatedPeak(
        rate: Int, poster: Poster?, segments: [MediaSegment], targetDuration: Int, container: AudioVariantContainer
    ) -> Int {
        let overhead = container == .mpegTS ? 1.15 : 1.05
        let perSegment = container == .mpegTS ? 2 * 188 : 0
        let runt = finalRunt(segments.map(\.duration), targetDuration: targetDuration)
        let frame = poster.map {
            PosterBudget.pictureFrameBytes(
                imageBytes: $0.data.count, mimeType: $0.mimeType, description: $0.description)
        }
        let windows = segments.enumerated().map { index, segment in
            let audio = Int((Double(rate) * overhead * segment.duration / 8).rounded(.up)) + perSegment
            let posterBytes =
                frame.map { index == runt ? 0 : PosterBudget.growth(posterLayout(container), frameBytes: $0) } ?? 0
            return BitrateWindow.Segment(bytes: audio + posterBytes, duration: segment.duration)
        }
        return BitrateWindow.peak(windows, targetDuration: targetDuration) ?? .max
    }

    /// The peak `built` would have at `rate` instead: its bytes without the poster scaled by
    /// the rate, plus the poster's share as measured. Decides whether the next rung is worth
    /// encoding, and says what it would need.
    static func projectedPeak(_ built: BuiltVariant, rate: Int) -> Int {
        let posterShare = built.peak - built.peakWithoutPoster
        return Int((Double(built.peakWithoutPoster) * Double(rate) / Double(max(1, built.rate))).rounded(.up))
            + posterShare
    }

    /// What the rung above `chosen` would have needed: its peak (measured when it was encoded,
    /// projected otherwise) against the budget, and the poster or budget that would let it fit.
    func nextStepNote(
        after chosen: BuiltVariant, above: BuiltVariant?, budget: Int, poster: Poster?,
        container: AudioVariantContainer
    ) -> String? {
        guard let index = Self.standardRates.firstIndex(of: chosen.rate) else { return nil }
        guard index + 1 < Self.standardRates.count else { return "the top of the ladder: no higher rate to try" }
        let up = Self.standardRates[index + 1]
        let measured = above?.rate == up ? above : nil
        let peak = measured?.peak ?? Self.projectedPeak(chosen, rate: up)
        var text =
            "next step up: \(Self.kbps(up)) would peak at \(measured == nil ? "about " : "")\(Self.kbps(peak)) (\(measured == nil ? "projected from this encoding" : "encoded and measured")), \(Self.kbps(max(0, peak - budget))) over the budget"
        var needs: [String] = []
        if let poster {
            // Its segments without the poster: measured, or this encoding's scaled by the rate.
            let bare =
                measured?.bareSizes
                ?? chosen.bareSizes.map { Int((Double($0) * Double(up) / Double(max(1, chosen.rate))).rounded(.up)) }
            // Every rate cuts the same frames on the same boundaries: the same durations.
            let fits = Self.largestImage(
                budget: budget, bareSizes: bare, durations: chosen.durations, targetDuration: chosen.targetDuration,
                image: poster, container: container)
            if fits > 0 {
                needs.append(
                    "a poster of at most \(measured == nil ? "about " : "")\(fits) bytes (this one has \(poster.data.count))"
                )
            }
        }
        needs.append("--budget-kbps \((peak + 999) / 1000)")
        text += "; it needs " + needs.joined(separator: " or ")
        return text
    }

    /// The largest image whose tag keeps a variant of `bareSizes` (its segments without a poster)
    /// within budget: the checker's own answer (PosterBudget.largestPoster), a final runt left out.
    static func largestImage(
        budget: Int, bareSizes: [Int], durations: [Double], targetDuration: Int, image: Poster,
        container: AudioVariantContainer
    ) -> Int {
        let runt = finalRunt(durations, targetDuration: targetDuration)
        let bare = zip(durations, bareSizes).enumerated().map { index, pair in
            PosterBudget.Segment(
                bytesWithoutPoster: pair.1, duration: pair.0, layout: posterLayout(container),
                carriesPoster: index != runt)
        }
        return PosterBudget.largestPoster(
            within: budget, bare, targetDuration: targetDuration, mimeType: image.mimeType,
            description: image.description) ?? 0
    }

    func refusal(_ candidate: BuiltVariant, budget: Int) -> String {
        let posterShare = candidate.peak - candidate.peakWithoutPoster
        let container = candidate.peakWithoutPoster - candidate.rate
        var text =
            "an audio-only variant at \(Self.kbps(candidate.rate)) of audio would peak at \(Self.kbps(candidate.peak)) against the \(Self.kbps(budget)) budget"
        if let poster = request.poster {
            text +=
                " (\(request.posterName), \(poster.data.count) bytes in every segment, adds \(Self.kbps(posterShare)); the container about \(Self.kbps(max(0, container))); that leaves \(Self.kbps(max(0, budget - posterShare - max(0, container)))) for audio, at least \(Self.kbps(candidate.rate)) is needed)"
        }
        return text
    }

    static func kbps(_ bits: Int) -> String {
        fixedPoint(Double(bits) / 1000, decimals: 1) + " kbit/s"
    }

    // MARK: - Playlists

    /// Whether a variant is one `--add-audio-only` added: its media playlist carries our
    /// marker comment (RFC 8216 §4.1: a `#` line that is no tag), or — as earlier versions
    /// wrote it — its URI lies in `hlscheck-audio-only/`. Never a user's variant: `--remove`
    /// deletes the files of ours.
    func isOurs(_ variant: VariantStream, _ analysis: StreamAnalysis) -> Bool {
        if variant.uri.hasPrefix(Self.folderName + "/") { return true }
        guard let playlistURI = analysis.variants.first(where: { $0.stream?.line == variant.line })?.playlistURI,
            let playlist = analysis.loaded.mediaPlaylists[playlistURI]
        else { return false }
        return playlist.comments.contains { $0.text == Self.marker }
    }

    /// Why `name` cannot name the new variant's playlist (relative to the multivariant
    /// playlist), nil when it can: plain relative path components, ending in `.m3u8`.
    package static func nameProblem(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.hasPrefix("/") || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            return "a relative path without empty, '.' or '..' parts"
        }
        if name.contains(where: { "%?#\\".contains($0) || $0.isNewline || $0 == "\"" }) {
            return "a plain name, without '%', '?', '#', '\\' or quotes"
        }
        if !name.hasSuffix(".m3u8") || name == ".m3u8" { return "a playlist name ending in .m3u8" }
        return nil
    }

    /// The new variant's folder and playlist name, relative to the multivariant playlist's
    /// folder: `--name` (or `audio-only/index.m3u8`) when nothing is there; a content-addressed
    /// name in the same folder when a variant of ours is there (a rebuild: the writer never
    /// overwrites what the current playlist references); without `--name`, the folder
    /// `hlscheck-audio-only/` when the plain name belongs to someone else.
    func newVariantName(
        multivariantFolder: String, ours: [VariantStream], mediaPlaylist: [UInt8]
    ) throws(EmbedError) -> (folder: String, playlist: String) {
        let wanted = request.name ?? Self.defaultName
        if let problem = Self.nameProblem(wanted) {
            throw EmbedError("--name \(wanted): the new variant's playlist needs \(problem)")
        }
        let folder = PathString.parent(wanted)
        let playlist = PathString.lastComponent(wanted)
        let path = PathString.join(multivariantFolder, wanted)
        guard FileManager.default.fileExists(atPath: path) else { return (folder, playlist) }
        let existing = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        // Left by a run that was killed before the multivariant playlist was swapped in: the
        // same bytes are taken over as they are (the writer reuses a name holding them).
        if existing == mediaPlaylist { return (folder, playlist) }
        let marked = String(decoding: existing.prefix(256), as: UTF8.self).split(whereSeparator: \.isNewline).contains {
            $0 == Self.marker
        }
        if marked || ours.contains(where: { $0.uri == wanted }) {
            return (folder, SegmentName.renamed(playlist, bytes: mediaPlaylist))
        }
        guard request.name == nil else {
            throw EmbedError(
                "--name \(wanted): \(path) exists and is not a variant hlscheck added; nothing was written — choose another --name"
            )
        }
        return (Self.folderName, SegmentName.renamed("index.m3u8", bytes: mediaPlaylist))
    }

    /// Every file of the variants we added (playlist, segments, init), relative to the layout.
    func ownFiles(_ analysis: StreamAnalysis, _ layout: StreamLayout) -> Set<String> {
        var files = Set<String>()
        for variant in analysis.variants where variant.stream.map({ isOurs($0, analysis) }) ?? false {
            var playlists = [(variant.playlistURI, variant.playlist)]
            for rendition in variant.audioRenditions where isOurPlaylist(rendition.playlistURI, analysis) {
                if let uri = rendition.playlistURI { playlists.append((uri, rendition.playlist)) }
            }
            for (uri, playlist) in playlists {
                files.insert(layout.relative(uri))
                for segment in playlist?.segments ?? [] {
                    files.insert(layout.relative(URIResolver.resolve(segment.uri, against: uri)))
                    if let map = segment.map {
                        files.insert(layout.relative(URIResolver.resolve(map.uri, against: uri)))
                    }
                }
            }
        }
        return files
    }

    /// The playlist at `uri` as the analysis read it (refused when another program changed it since).
    func readPlaylist(_ uri: String, layout: StreamLayout) throws(EmbedError) -> [UInt8] {
        try layout.unchangedPlaylist(layout.relative(uri)) { () throws(EmbedError) in
            FileManager.default.contents(atPath: StreamLayout.file(uri)).map { [UInt8]($0) }
        }
    }

    /// The new media playlist: the source's, line for line, with the segment URIs and EXT-X-MAP
    /// pointing at the new files; tags that describe the source's bytes (EXT-X-BITRATE, the
    /// byte ranges of a single-file source: each new segment is a file of its own) or its
    /// low-latency parts are left out. MEDIA-SEQUENCE, DISCONTINUITY(-SEQUENCE), PLAYLIST-TYPE,
    /// PROGRAM-DATE-TIME and ENDLIST stay as they were; each EXTINF is `durations` (the new
    /// audio's, `extinfDurations`: the source's line where it says the same), TARGETDURATION
    /// `targetDuration`, and EXT-X-VERSION at least 3 where an EXTINF gains decimals (RFC 8216 §7).
    package static func mediaPlaylist(
        from bytes: [UInt8], playlist: MediaPlaylist, names: [String], initName: String?, durations: [Double],
        targetDuration: Int
    ) -> [UInt8] {
        var uriLines: [Int: String] = [:]
        for (segment, name) in zip(playlist.segments, names) { uriLines[segment.uriLine] = name }
        var extinfLines: [Int: String] = [:]
        for (segment, duration) in zip(playlist.segments, durations) where duration != segment.duration {
            if let line = segment.extinfLine { extinfLines[line] = fixedPoint(duration, decimals: 6) }
        }
        let newVersion = !extinfLines.isEmpty && (playlist.version ?? 1) < 3
        let newTarget = playlist.targetDuration.map { $0 < targetDuration } ?? false
        let text = String(decoding: bytes, as: UTF8.self)
        let crlf = text.contains("\r\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0[...])
        }
        if lines.last == "" { lines.removeLast() }
        let dropped = [
            "#EXT-X-BITRATE", "#EXT-X-BYTERANGE", "#EXT-X-PART:", "#EXT-X-PART-INF", "#EXT-X-PRELOAD-HINT",
            "#EXT-X-RENDITION-REPORT", "#EXT-X-SERVER-CONTROL", "#EXT-X-SKIP", "#EXT-X-I-FRAMES-ONLY",
        ]
        var out: [String] = []
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if let name = uriLines[number] {
                out.append(name)
                continue
            }
            if let duration = extinfLines[number] {
                // The title after the comma stays.
                let title = line.firstIndex(of: ",").map { String(line[$0...]) } ?? ","
                out.append("#EXTINF:" + duration + title)
                continue
            }
            if newTarget, number == playlist.targetDurationLine {
                out.append("#EXT-X-TARGETDURATION:\(targetDuration)")
                continue
            }
            if newVersion, number == playlist.versionLine {
                out.append("#EXT-X-VERSION:3")
                continue
            }
            let trimmed = line.trimmingWhiteSpace(newlines: false)
            if dropped.contains(where: { trimmed.hasPrefix($0) }) { continue }
            if trimmed.hasPrefix("#EXT-X-MAP:") {
                if let initName { out.append("#EXT-X-MAP:URI=\"\(initName)\"") }
                continue
            }
            out.append(offset == 0 && line.hasPrefix("\u{FEFF}") ? String(line.dropFirst()) : line)
            if offset == 0 { out.append(marker) }
            if offset == 0, newVersion, playlist.versionLine == nil { out.append("#EXT-X-VERSION:3") }
        }
        return Array((out.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n")).utf8)
    }

    /// `bytes` without the 1-based `lines`; every other byte unchanged.
    static func removingLines(_ lines: ClosedRange<Int>, from bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var line = 1
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
            if !lines.contains(line) { out += bytes[start..<end] }
            start = end
            line += 1
        }
        return out
    }

    /// `bytes` with `lines` inserted before the 1-based `line`, in the file's line endings;
    /// every other byte unchanged.
    static func insertingLines(_ lines: [String], atLine line: Int, into bytes: [UInt8]) -> [UInt8] {
        let crlf = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? false
        let newline: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        var start = 0, current = 1
        while current < line, let end = bytes[start...].firstIndex(of: 0x0A) {
            start = end + 1
            current += 1
        }
        guard current == line, start < bytes.count else { return appendingLines(lines, to: bytes) }
        return Array(bytes[..<start]) + lines.flatMap { Array($0.utf8) + newline } + Array(bytes[start...])
    }

    /// What keeps an audio-only variant from doing its job (empty: it does): measured over the
    /// budget, or — when a poster is to go in — segments without one (a final runt may, per
    /// docs/measurement.md, "Runt segments"); or not measurable.
    func problems(of variant: VariantAnalysis, budget: Int) -> [String] {
        guard let measurement = variant.measurement, let peak = variant.measuredPeakBitrate,
            variant.isMeasurementComplete
        else {
            return ["its segments could not all be measured"]
        }
        var problems: [String] = []
        if peak > budget { problems.append("it peaks at \(Self.kbps(peak)) against the \(Self.kbps(budget)) budget") }
        if request.poster != nil || request.posterFromVideo != nil {
            let runt = measurement.finalRuntIndex
            var inspected = 0, missing = 0
            for (index, record) in measurement.records.enumerated() where record.isInspected && index != runt {
                inspected += 1
                if record.artwork == nil { missing += 1 }
            }
            if missing > 0 {
                problems.append(
                    missing == inspected
                        ? "it carries no poster" : "\(missing) of \(inspected) segments carry no poster")
            }
        }
        return problems
    }

    /// "audio/index.m3u8 peaks at 51.2 kbit/s within the 64.0 kbit/s budget, the poster in every segment".
    func validDescription(_ stream: VariantStream, _ analysis: StreamAnalysis, budget: Int) -> String {
        let variant = analysis.variants.first { $0.stream?.line == stream.line }
        var text =
            "\(stream.uri) peaks at \(Self.kbps(variant?.measuredPeakBitrate ?? 0)) within the \(Self.kbps(budget)) budget"
        if let measurement = variant?.measurement, measurement.records.contains(where: { $0.artwork != nil }) {
            text +=
                measurement.finalRuntIndex.map { measurement.records[$0].artwork == nil } == true
                ? ", the poster in every segment but the final runt" : ", the poster in every segment"
        }
        return text
    }

    /// `bytes` with `lines` appended at the end (after the last line, in the file's line
    /// endings); every byte before them unchanged.
    static func appendingLines(_ lines: [String], to bytes: [UInt8]) -> [UInt8] {
        let crlf = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? false
        let newline: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        var out = bytes
        if let last = out.last, last != 0x0A { out += newline }
        for line in lines { out += Array(line.utf8) + newline }
        return out
    }

    // MARK: - Languages

    /// One rendition of the source's AUDIO group and the playlist it plays.
    struct LanguageRendition {
        var rendition: Rendition
        var source: Source
    }

    /// The renditions of the AUDIO group `source` belongs to, one per language, the default
    /// first — when the group has two languages or more (else empty: one rendition is enough).
    func languageGroup(_ analysis: StreamAnalysis, containing source: Source) -> [LanguageRendition] {
        var members: [LanguageRendition] = []
        var seen = Set<String>()
        var group: String?
        for variant in analysis.variants {
            for rendition in variant.audioRenditions where rendition.playlistURI == source.playlistURI {
                group = group ?? rendition.rendition.groupID
            }
        }
        guard let group else { return [] }
        for variant in analysis.variants {
            for rendition in variant.audioRenditions where rendition.rendition.groupID == group {
                guard let uri = rendition.playlistURI, let playlist = rendition.playlist,
                    let measurement = rendition.measurement,
                    measurement.records.contains(where: \.hasAudio), seen.insert(uri).inserted
                else { continue }
                members.append(
                    LanguageRendition(
                        rendition: rendition.rendition,
                        source: Source(
                            uri: rendition.rendition.uri ?? uri, playlistURI: uri, playlist: playlist,
                            measurement: measurement)))
            }
        }
        var languages = Set<String>()
        let distinct = members.filter { languages.insert(($0.rendition.language ?? "").lowercased()).inserted }
        guard distinct.count > 1 else { return [] }
        return distinct.filter(\.rendition.isDefault) + distinct.filter { !$0.rendition.isDefault }
    }

    /// "en", "pt-BR": a language tag as a folder name; "lang1" when there is none to use.
    static func folderName(forLanguage language: String?, index: Int) -> String {
        guard let language, !language.isEmpty,
            language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else {
            return "lang\(index)"
        }
        return language
    }

    /// The new group's EXT-X-MEDIA line: the source rendition's NAME, LANGUAGE, DEFAULT and
    /// AUTOSELECT (RFC 8216 §4.3.4.1), the new playlist's URI.
    static func mediaLine(_ rendition: Rendition, group: String, channels: Int, uri: String) -> String {
        var line =
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(group)\",NAME=\"\(rendition.name ?? rendition.language ?? "audio")\""
        if let language = rendition.language { line += ",LANGUAGE=\"\(language)\"" }
        line +=
            ",DEFAULT=\(rendition.isDefault ? "YES" : "NO"),AUTOSELECT=\(rendition.autoselect || rendition.isDefault ? "YES" : "NO")"
        line += ",CHANNELS=\"\(channels)\",URI=\"\(uri)\""
        return line
    }

    /// "audio-only", or "audio-only-2" … when the stream has a group of that name already.
    func uniqueGroupID(_ analysis: StreamAnalysis) -> String {
        let taken = Set(analysis.variants.flatMap { $0.audioRenditions.compactMap(\.rendition.groupID) })
        var candidate = "audio-only", number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = "audio-only-\(number)"
        }
        return candidate
    }

    /// The EXT-X-MEDIA lines of the renditions of variants we added whose playlists we wrote.
    func ownRenditionLines(_ analysis: StreamAnalysis) -> [ClosedRange<Int>] {
        var lines = Set<Int>()
        for variant in analysis.variants where variant.stream.map({ isOurs($0, analysis) }) ?? false {
            for rendition in variant.audioRenditions where isOurPlaylist(rendition.playlistURI, analysis) {
                lines.insert(rendition.rendition.line)
            }
        }
        return lines.sorted().map { $0...$0 }
    }

    func isOurPlaylist(_ uri: String?, _ analysis: StreamAnalysis) -> Bool {
        guard let uri, let playlist = analysis.loaded.mediaPlaylists[uri] else { return false }
        return playlist.comments.contains { $0.text == Self.marker }
    }

    // MARK: - Writing and checking

    func write(
        layout: StreamLayout, multivariant: [UInt8], lock: StreamLock?, additions: [StreamWriter.Addition],
        dropped: Set<String>
    ) throws(EmbedError) -> String {
        let writer = StreamWriter(
            layout: layout, destination: request.destination, wait: request.wait, report: request.report,
            hook: request.writeStepHook)
        return try writer.write(
            multivariant: multivariant, targets: [], lock: lock, additions: additions, dropped: dropped
        ) {
            (_: StreamWriter.Put) throws(EmbedError) in
        }
    }

    func recheck(_ output: String, layout: StreamLayout) async throws(EmbedError) -> CheckReport {
        var configuration = request.configuration
        if case .folder = request.destination, output.hasSuffix("/" + layout.rootPlaylist) {
            // The copy holds the whole stream: confine the check to it.
            configuration.confinement.root = String(output.dropLast(layout.rootPlaylist.count + 1))
        } else if configuration.confinement.root == nil {
            configuration.confinement.root = StreamRoot.commonFolder(of: [request.input, output])
        }
        do {
            return try await Checker(configuration: configuration).check(output)
        } catch {
            throw EmbedError("wrote \(output) but cannot re-check it: \(error.description)")
        }
    }
}
