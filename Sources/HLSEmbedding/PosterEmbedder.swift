import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSPackaging
import HLSPlaylist
import MediaFormats
import MediaInspection
import MediaEncoding
import FileSystem

/// `hlscheck embed`: puts the poster into every segment of the audio-only variants and audio
/// renditions, recomputes their BANDWIDTH / AVERAGE-BANDWIDTH, writes the stream, re-checks it.
///
/// Budget first: everything is rewritten in memory, one segment at a time, and measured before a
/// single byte is written; then the files are written (a copy, or an atomic in-place swap).
package struct PosterEmbedder: Sendable {
    /// What to embed, where, and under which budget.
    package var request: EmbedRequest

    /// Makes an embedder for `request`; nothing is read until `run()`.
    package init(_ request: EmbedRequest) {
        self.request = request
    }

    /// Plans, measures, writes and re-checks the stream. Throws `EmbedError` for an unreadable
    /// input, no target to rewrite, encrypted segments, byte ranges that cannot be rewritten
    /// consistently (ByteRangedFile), a segment that cannot be rewritten, a result over budget
    /// without `force` (or that `fit` cannot make fit), a lock held by another run, or a write
    /// that failed; and, after writing, when the written stream cannot be re-checked.
    package func run() async throws(EmbedError) -> EmbedOutcome {
        // In place, nobody else may change the stream between our reading and our writing.
        let lock =
            request.destination == .inPlace
            ? try StreamWriter.lockInPlace(request.input, wait: request.wait, report: request.report) : nil
        defer { lock?.release() }
        // The analysis keeps the audio segments it reads, and the rewrite takes them from there:
        // each segment is read once.
        let sourceBytes = SegmentBytesKeeper(byteBudget: Self.keptSourceBytes)
        let analysis = try await StreamWriter.analyse(
            request.input, configuration: request.configuration, keeping: sourceBytes)
        try StreamLayout.requirePlainFileNames(analysis)
        let targets = try preflight(try selectTargets(analysis), analysis)
        if request.destination == .inPlace, let live = targets.first(where: { !$0.playlist.endList }) {
            throw StreamWriter.stillWritten(live.playlistURI)
        }
        return try await withPosterFromVideo(analysis).embed(
            analysis, targets: targets, lock: lock, sourceBytes: sourceBytes)
    }

    /// This embedder with the picture `--poster-from-video` takes from the stream's video as its
    /// poster, to be fitted like `--fit`; itself when the poster is an image.
    func withPosterFromVideo(_ analysis: StreamAnalysis) throws(EmbedError) -> PosterEmbedder {
        var resolved = self
        try resolved.request.takePosterFromVideo(analysis)
        return resolved
    }

    /// Plans, measures, writes and re-checks the analysed stream (see `run()`).
    /// `sourceBytes`: the segments the analysis kept, taken by the first rewrite instead of
    /// reading their files again.
    func embed(
        _ analysis: StreamAnalysis, targets: [PlannedTarget], lock: StreamLock?, sourceBytes: SegmentBytesKeeper? = nil
    ) async throws(EmbedError) -> EmbedOutcome {
        var poster = request.poster
        var fitted: String?
        var plan = try await rewritePlan(targets, poster: poster, sourceBytes: sourceBytes)
        // What the rewrite did not take (segments of playlists that are no target) is let go.
        sourceBytes?.removeAll()
        if let excess = plan.overBudget(analysis, budget: request.configuration.audioOnlyBudget), let image = poster,
            !request.force
        {
            let fitting = maximumImageBytes(excess, analysis, image: image)
            guard request.fit else {
                throw EmbedError(
                    budgetMessage(excess, image: image, fitting: fitting, plan: plan)
                        + ": use a smaller image, --fit to re-encode it, or --force")
            }
            guard let fitting, let smaller = try request.reencode(image, maxBytes: fitting) else {
                throw EmbedError(
                    budgetMessage(excess, image: image, fitting: fitting, plan: plan)
                        + ", and no re-encoding of the image fits (--fit searches JPEG quality, then smaller sizes; \(request.fitFloor(image)))"
                )
            }
            poster = smaller.poster
            fitted = smaller.description
            plan = try await rewritePlan(targets, poster: poster)
            if let still = plan.overBudget(analysis, budget: request.configuration.audioOnlyBudget) {
                throw EmbedError(
                    budgetMessage(still, image: smaller.poster, fitting: nil, plan: plan)
                        + " even re-encoded (\(smaller.description))")
            }
        }

        let layout = try StreamLayout(analysis)
        let multivariant = try multivariantBytes(analysis, plan)
        let finalPoster = poster
        var writer = StreamWriter(
            layout: layout, destination: request.destination, wait: request.wait, report: request.report,
            hook: request.writeStepHook)
        writer.keepNames = request.keepNames
        let output = try writer.write(
            multivariant: multivariant, targets: plan.targets.map(\.playlistURI), lock: lock
        ) {
            (put: StreamWriter.Put) throws(EmbedError) in
            // The measured bytes, kept from the first pass; beyond the memory bound, a second
            // pass (the writers are deterministic, so these are the measured bytes again).
            for target in plan.targets {
                // Segments that are byte ranges of one file wait for the file's other ranges.
                var ranged: [Int: [UInt8]] = [:]
                let inFiles = Set(target.byteRangedFiles.flatMap(\.segments))
                func rewritten(_ index: Int, _ segment: MediaSegment, _ bytes: [UInt8], _ fingerprint: String?)
                    throws(EmbedError)
                {
                    if inFiles.contains(index) {
                        ranged[index] = bytes
                    } else {
                        try put(
                            RewrittenFile(
                                playlistURI: target.playlistURI, segment: segment, bytes: bytes,
                                fingerprint: fingerprint))
                    }
                }
                if let kept = target.rewritten {
                    for (index, (segment, bytes)) in zip(target.segments, kept).enumerated() {
                        try rewritten(index, segment, bytes, target.fingerprints[index])
                    }
                } else {
                    var session = SegmentSession(timelineStart: target.timelineStart)
                    for (index, (segment, record)) in zip(target.segments, target.measurement.records).enumerated() {
                        let path = URIResolver.resolve(segment.uri, against: target.playlistURI)
                        let bytes = try session.rewrite(
                            path, segment: segment, record: record,
                            poster: target.poster(finalPoster, forSegment: index))
                        try rewritten(index, segment, bytes, nil)
                    }
                }
                for file in target.byteRangedFiles {
                    try put(
                        try Self.rewrittenFile(file, target: target, segments: file.segments.map { ranged[$0] ?? [] }))
                }
            }
        }
        lock?.release()
        // The new bytes are on disk: let go of them before the re-check, whose own allocations
        // then take their memory instead of new pages (a page fault each).
        for index in plan.targets.indices { plan.targets[index].rewritten = nil }

        let verification: CheckReport
        do {
            // The output's multivariant playlist may point back at the input's untouched variants:
            // confine the re-check to the folder holding both, unless the user chose a root.
            var configuration = request.configuration
            if configuration.confinement.root == nil {
                configuration.confinement.root = StreamRoot.commonFolder(of: [request.input, output])
            }
            var checker = Checker(configuration: configuration)
            checker.knownSegments = knownSegments(analysis, plan, layout: layout, output: output)
            verification = try await checker.check(output)
        } catch {
            throw EmbedError("wrote \(output) but cannot re-check it: \(error.description)")
        }
        // The stream's findings from before matter only when the re-check has some to tell
        // apart: a clean result needs no second pass of the rules over the analysis.
        let prior =
            verification.diagnostics.isEmpty
            ? PriorFindings([], root: layout.root)
            : PriorFindings(Checker(configuration: request.configuration).diagnose(analysis), root: layout.root)
        let split = prior.split(verification.diagnostics, root: layout.outputRoot(output))
        return EmbedOutcome(
            output: output,
            targets: plan.targets.map { target in
                var result = EmbedOutcome.Target(
                    uri: target.uri, segments: target.newSizes.count, peakBefore: target.measurement.peakBitrate,
                    peakAfter: target.newPeak, averageAfter: target.newAverage, notes: notes(target))
                result.withoutPoster = request.poster != nil && target.runtLeftOut != nil ? 1 : 0
                return result
            },
            fittedImage: fitted, verification: verification,
            verdict: EmbedVerdict(written: split.written, before: split.before))
    }

    // MARK: - Re-check

    /// What the re-check of `output` may take without reading (docs/embed.md, "The re-check"):
    /// for each playlist the rewrite changed, the records of its rewritten segments
    /// (`PlannedTarget.newRecords`); for every other measured playlist, whose files the output
    /// links (or, in place, leaves as they are), the records the analysis measured. Nil — read
    /// everything — when the check decodes (`--decode` judges every frame) or watches a live stream.
    func knownSegments(_ analysis: StreamAnalysis, _ plan: RewritePlan, layout: StreamLayout, output: String)
        -> KnownSegments?
    {
        let configuration = request.configuration
        guard !configuration.decode, configuration.liveWatchSeconds == nil,
            output.hasSuffix("/" + layout.rootPlaylist)
        else { return nil }
        let root = String(output.dropLast(layout.rootPlaylist.count + 1))
        var known = KnownSegments()
        for (uri, measurement) in analysis.measurements {
            let path = PathString.join(root, layout.relative(uri))
            if let target = plan.target(uri) {
                guard target.newRecords.count == measurement.records.count else { continue }
                known.set(target.newRecords, forPlaylistAt: path)
            } else {
                known.set(measurement.records.map { $0 }, forPlaylistAt: path)
            }
        }
        return known
    }

    // MARK: - Targets

    /// By default the audio-only variants and their own audio renditions: the poster shows
    /// while a player sits on the audio-only variant. A full-rate AUDIO rendition plays beside
    /// video, where the poster only costs bandwidth, so it is a target only when `--variant`
    /// names it.
    func selectTargets(_ analysis: StreamAnalysis) throws(EmbedError) -> [PlannedTarget] {
        var candidates: [PlannedTarget] = []
        var defaults = Set<String>()
        var seen = Set<String>()
        var unread: [UnreadPlaylist] = []
        func add(_ uri: String, _ playlistURI: String, _ playlist: MediaPlaylist?, byDefault: Bool) {
            if byDefault { defaults.insert(playlistURI) }
            guard let playlist, let measurement = analysis.measurements[playlistURI] else {
                if byDefault { unread.append(UnreadPlaylist(uri: uri, playlistURI: playlistURI)) }
                return
            }
            guard seen.insert(playlistURI).inserted else { return }
            var target = PlannedTarget(uri: uri, playlistURI: playlistURI, playlist: playlist, measurement: measurement)
            target.timelineStart = SegmentSession.timelineStart(
                analysis, sequence: playlist.segments.first?.mediaSequence ?? playlist.mediaSequence,
                excluding: playlistURI)
            candidates.append(target)
        }
        for variant in analysis.variants {
            if variant.isAudioOnly { add(variant.uri, variant.playlistURI, variant.playlist, byDefault: true) }
            for rendition in variant.audioRenditions {
                if let uri = rendition.playlistURI {
                    add(rendition.rendition.uri ?? uri, uri, rendition.playlist, byDefault: variant.isAudioOnly)
                }
            }
        }
        guard !request.variants.isEmpty else {
            let chosen = candidates.filter { defaults.contains($0.playlistURI) }
            // An audio-only variant left without the poster because embed could not read it
            // would pass unnoticed in a run that says it is done.
            if !unread.isEmpty {
                throw EmbedError(
                    "\(request.input): an audio-only variant could not be read, so it cannot get the poster"
                        + analysis.notRead(unread)
                        + (chosen.isEmpty ? "" : "; --variant URI embeds into the others alone"))
            }
            guard !chosen.isEmpty else {
                let renditions = candidates.map(\.uri)
                throw EmbedError(
                    "\(request.input) has no audio-only variant to put the poster in\(renditions.isEmpty ? "" : " (its audio renditions \(renditions.joined(separator: ", ")) play beside video, where a poster only costs bandwidth)"): hlscheck embed --add-audio-only --image \(request.posterName.isEmpty ? "POSTER" : request.posterName) creates one with the poster\(renditions.isEmpty ? "" : "; --variant URI puts it into a rendition anyway")"
                )
            }
            return chosen
        }
        return try request.variants.map { (name: String) throws(EmbedError) -> PlannedTarget in
            guard
                let match = candidates.first(where: {
                    $0.uri == name || $0.playlistURI == name || StreamLayout.file($0.playlistURI) == name
                })
            else {
                let known = candidates.map(\.uri).joined(separator: ", ")
                throw EmbedError(
                    "--variant \(name) is not an audio-only variant or audio rendition of \(request.input) (these are: \(known.isEmpty ? "none" : known))"
                )
            }
            return match
        }
    }

    /// Refuses what cannot be rewritten, before anything is written; returns the targets with
    /// the files their byte ranges lie in (a single-file variant, ByteRangedFile).
    func preflight(_ targets: [PlannedTarget], _ analysis: StreamAnalysis) throws(EmbedError) -> [PlannedTarget] {
        var result = targets
        for (position, target) in targets.enumerated() {
            if target.segments.contains(where: { $0.byteRange != nil }) {
                result[position].byteRangedFiles = try byteRangedFiles(target, analysis)
            }
            for (segment, record) in zip(target.segments, target.measurement.records) {
                // Worked out for a refusal only, not for each of a stream's segments.
                var place: String { "\(StreamLayout.file(target.playlistURI)):\(record.line)" }
                if record.encrypted {
                    throw EmbedError(
                        "\(place): segment \(segment.uri) is encrypted (METHOD=\(segment.key?.method ?? "?")): hlscheck cannot rewrite encrypted media"
                    )
                }
                if let problem = record.problem {
                    throw EmbedError("\(place): segment \(segment.uri) cannot be read: \(problem)")
                }
                guard let container = record.container, container != .unknown else {
                    throw EmbedError(
                        "\(place): segment \(segment.uri) is in no container hlscheck can rewrite (MPEG-TS, ADTS, MP3, AC-3, E-AC-3, fMP4)"
                    )
                }
            }
        }
        return result
    }

    /// The files `target`'s byte ranges lie in, from the playlist as the analysis read it;
    /// refused when another playlist of the stream lists one of them too: the file is written
    /// again whole under a new name, and that playlist's ranges would point into the old one.
    func byteRangedFiles(_ target: PlannedTarget, _ analysis: StreamAnalysis) throws(EmbedError) -> [ByteRangedFile] {
        let path = StreamLayout.file(target.playlistURI)
        guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
            PlaylistSourceDigest(bytes) == analysis.loaded.mediaPlaylists[target.playlistURI]?.sourceDigest
        else {
            throw EmbedError(
                "\(path) changed while embed ran: another program is writing the stream (a live encoder, an editor, another tool); embed stopped before writing anything — run again when it has finished"
            )
        }
        let files = try ByteRangedFile.files(of: target.segments, playlistURI: target.playlistURI, playlist: bytes)
        let ours = Set(files.map(\.resolved))
        for (uri, playlist) in analysis.loaded.mediaPlaylists.sorted(by: { $0.key < $1.key })
        where uri != target.playlistURI {
            for segment in playlist.media?.segments ?? [] {
                let listed = [segment.uri] + (segment.map.map { [$0.uri] } ?? [])
                guard
                    let shared = listed.first(where: {
                        ours.contains(StreamLayout.file(URIResolver.resolve($0, against: uri)))
                    })
                else { continue }
                throw EmbedError(
                    "\(StreamLayout.file(uri)):\(segment.uriLine) lists \(shared), whose byte ranges are the segments of \(path) too: embed writes that file again with its ranges moved, which would leave \(StreamLayout.file(uri))'s ranges pointing into the old one — give each playlist its own file"
                )
            }
        }
        return files
    }

    /// The byte-ranged `file` of `target` written again with `segments` (its segments'
    /// rewritten bytes, in the order of `file.segments`), and the lines that change with it.
    static func rewrittenFile(_ file: ByteRangedFile, target: PlannedTarget, segments: [[UInt8]]) throws(EmbedError)
        -> RewrittenFile
    {
        let original = try SegmentSession.read(StreamLayout.file(file.resolved), range: nil)
        let all = target.segments
        let assembled = try file.assemble(original: original, rewritten: segments, of: all)
        var uriLines: [Int: String] = [:]
        for index in file.segments { uriLines[all[index].uriLine] = all[index].uri }
        return RewrittenFile(
            playlistURI: target.playlistURI, uri: file.uri, bytes: assembled.bytes, uriLines: uriLines,
            rangeLines: assembled.rangeLines, mapLines: assembled.maps)
    }

    /// What the rewrite did besides the poster: a removal gives back the bytes from before the
    /// embed except where the spec needs them (docs/embed.md, "Removing").
    func notes(_ target: PlannedTarget) -> [String] {
        var notes: [String] = []
        if request.poster == nil, target.timestampsKept > 0 {
            notes.append(
                "kept the ID3 PRIV timestamp that starts \(target.timestampsKept) packed-audio segments of \(target.uri): RFC 8216 §3.4 requires it, so one that hlscheck embed added stays and those segments keep its bytes"
            )
        }
        if let kept = target.keptPictures.note(playlist: target.uri) { notes.append(kept) }
        if request.poster != nil, let runt = target.runtLeftOut {
            notes.append(
                "left the poster out of the last segment \(runt.uri) of \(target.uri) (\(Self.seconds(runt.duration)), under half the \(target.measurement.targetDuration) s target duration): no peak window measures it alone, and a poster in it would weigh twice in the window it shares with the segment before (docs/measurement.md, \"Runt segments\")"
            )
        }
        let changed = zip(target.newSizes, target.measurement.records).contains { $0 != $1.bytes }
        for file in target.byteRangedFiles where changed {
            notes.append(
                "wrote \(file.uri), whose byte ranges are \(file.segments.count) segments of \(target.uri), again whole under a new name, with its EXT-X-BYTERANGE\(file.maps.isEmpty ? "" : " and EXT-X-MAP") lines moved to the new ranges\(request.keepNames ? " (--keep-names cannot keep its name: the old playlist's ranges fit only the old file, and a playlist and its file cannot be replaced in one rename)" : "")"
            )
        }
        if target.timestampsAdded > 0 {
            notes.append(
                "added an ID3 PRIV timestamp to \(target.timestampsAdded) packed-audio segments of \(target.uri) that had none: RFC 8216 §3.4 requires it"
            )
        }
        return notes
    }

    /// "0.021 s": a short duration as the notes give it.
    static func seconds(_ duration: Double) -> String {
        fixedPoint(duration, decimals: 3) + " s"
    }

    // MARK: - Rewriting

    /// How many bytes of the segments it read the analysis keeps for the rewrite (each at most
    /// ``SegmentBytesKeeper/defaultMaximumSegmentBytes``); beyond it the rewrite reads them again.
    static let keptSourceBytes = 64 << 20

    /// How many rewritten bytes the measuring pass keeps for the writing pass (600 audio
    /// segments with a 20 KB poster are about 20 MB); beyond it they are rewritten again.
    static let keptRewriteBytes = 128 << 20

    /// Rewrites every target segment in memory, in playlist order, keeping the new sizes (and, up
    /// to ``keptRewriteBytes`` in all, the new bytes, so each segment is read and rewritten once).
    ///
    /// The rewrite itself runs in order (the TS continuity counters and packed-audio timestamps
    /// run on from segment to segment); what only looks at the new bytes — our readers' scan for
    /// the re-check and the fingerprint that names the new file — runs beside it in child tasks,
    /// a batch of ``scanBatch`` segments each, at most ``scanBatchesInFlight`` at once, each
    /// result stored at its segment's index: the plan
    /// does not depend on which task finishes first.
    /// `sourceBytes`: segments read already (the analysis's), taken instead of reading their files.
    func rewritePlan(
        _ targets: [PlannedTarget], poster: Poster?, sourceBytes: SegmentBytesKeeper? = nil
    ) async throws(EmbedError) -> RewritePlan {
        var plan = RewritePlan()
        var kept = 0
        // Our own ID3/TS/emsg readers, with the check's limits, for what the re-check reuses.
        let limits = request.configuration.limits
        let scanner = SegmentInspector(
            source: LocalSegmentSource(maximumByteCount: limits.segmentBytes),
            maximumImagePixels: limits.imagePixels, maximumID3Bytes: limits.id3Bytes)
        for var target in targets {
            var session = SegmentSession(timelineStart: target.timelineStart)
            let work = Array(zip(target.segments, target.measurement.records))
            var rewritten: [[UInt8]]? = []
            var sizes: [Int] = []
            sizes.reserveCapacity(work.count)
            var scans = [(facts: SegmentFacts, fingerprint: String)?](repeating: nil, count: work.count)
            var failure: EmbedError?
            // The same shape as SegmentInspector.inspectAll: no nested function captures the
            // group (a release build of Swift 6.3.1 miscompiled that shape).
            await withTaskGroup(of: [(Int, SegmentFacts, String)].self) { group in
                var inFlight = 0
                var batch: [ScanItem] = []
                for (index, (segment, record)) in work.enumerated() {
                    let path = URIResolver.resolve(segment.uri, against: target.playlistURI)
                    let read = sourceBytes?.take(
                        path, range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) })
                    let bytes: [UInt8]
                    do throws(EmbedError) {
                        bytes = try session.rewrite(
                            path, segment: segment, record: record, poster: target.poster(poster, forSegment: index),
                            alreadyRead: read)
                    } catch {
                        failure = error
                        break
                    }
                    sizes.append(bytes.count)
                    kept += bytes.count
                    if kept > Self.keptRewriteBytes { rewritten = nil } else { rewritten?.append(bytes) }
                    batch.append(ScanItem(index: index, path: path, bytes: bytes, hasInitSection: segment.map != nil))
                    guard batch.count == Self.scanBatch || index == work.count - 1 else { continue }
                    let items = batch
                    batch.removeAll(keepingCapacity: true)
                    group.addTask { Self.scan(items, with: scanner) }
                    inFlight += 1
                    if inFlight >= Self.scanBatchesInFlight, let done = await group.next() {
                        for (index, facts, fingerprint) in done { scans[index] = (facts, fingerprint) }
                        inFlight -= 1
                    }
                }
                while let done = await group.next() {
                    for (index, facts, fingerprint) in done { scans[index] = (facts, fingerprint) }
                }
            }
            if let failure { throw failure }
            target.newSizes = sizes
            target.newRecords = zip(work, scans).map { item, scan in scan.flatMap { item.1.rewritten(as: $0.facts) } }
            target.fingerprints = scans.map { $0?.fingerprint }
            for scan in scans { if let scan { target.keptPictures.add(scan.facts.artwork) } }
            target.rewritten = rewritten
            (target.timestampsKept, target.timestampsAdded) = (session.timestampsKept, session.timestampsAdded)
            let windows = zip(target.segments, target.newSizes).map {
                BitrateWindow.Segment(bytes: $1, duration: $0.duration)
            }
            let targetDuration = target.playlist.targetDuration ?? 1
            target.newPeak = BitrateWindow.peak(windows, targetDuration: targetDuration)
            target.newAverage = BitrateWindow.average(windows)
            plan.targets.append(target)
        }
        return plan
    }

    /// One rewritten segment for the scan beside the rewrite.
    struct ScanItem: Sendable {
        var index: Int
        var path: String
        var bytes: [UInt8]
        var hasInitSection: Bool
    }

    /// Segments handed to the other core together: one hand-over (a task, a wake-up) per batch
    /// rather than per segment.
    static let scanBatch = 16
    /// Batches whose scan may wait at once (each holds its bytes until scanned): enough to keep
    /// the other core busy while this one rewrites.
    static let scanBatchesInFlight = 2

    /// Our readers' facts and the fingerprint of each rewritten segment of `items`.
    static func scan(_ items: [ScanItem], with scanner: SegmentInspector) -> [(Int, SegmentFacts, String)] {
        items.map { item in
            (
                item.index,
                scanner.scannedFacts(uri: item.path, bytes: item.bytes, hasInitSection: item.hasInitSection),
                SegmentName.fingerprint(item.bytes)
            )
        }
    }

    // MARK: - Budget

    /// The largest image that keeps the variant within budget: the very number the check gives
    /// (VariantAnalysis.largestPoster, one function for both), for this image's MIME type and
    /// description.
    func maximumImageBytes(_ excess: RewritePlan.Excess, _ analysis: StreamAnalysis, image: Poster) -> Int? {
        guard let variant = analysis.variants.first(where: { $0.playlistURI == excess.playlistURI }) else { return nil }
        return variant.largestPoster(
            within: request.configuration.audioOnlyBudget, mimeType: image.mimeType, description: image.description)
    }

    func budgetMessage(_ excess: RewritePlan.Excess, image: Poster, fitting: Int?, plan: RewritePlan) -> String {
        let budget = request.configuration.audioOnlyBudget
        var message =
            "\(request.posterName) is \(image.data.count) bytes; \(excess.uri) would peak at \(excess.peak) bit/s against a budget of \(budget) bit/s"
        // Pictures the segments keep beside the poster take their share: say so, or the sum
        // does not add up for the user.
        if let kept = plan.target(excess.playlistURI)?.keptPictures.note(playlist: excess.uri) {
            message += " (\(kept))"
        }
        if let fitting {
            message += "; an image of at most \(fitting) bytes fits"
        } else {
            message += "; no poster fits"
        }
        return message
    }

    // MARK: - Playlists

    /// The multivariant playlist with BANDWIDTH / AVERAGE-BANDWIDTH recomputed for every variant
    /// the rewrite touched; every other byte unchanged. Nil for a media playlist input.
    func multivariantBytes(_ analysis: StreamAnalysis, _ plan: RewritePlan) throws(EmbedError) -> [UInt8]? {
        guard analysis.multivariant != nil else { return nil }
        let original: [UInt8]
        do {
            original = try RegularFile(path: StreamLayout.file(analysis.loaded.rootURI)).readAll(
                maximumBytes: .max, limitHint: "")
        } catch {
            throw EmbedError("\(StreamLayout.file(analysis.loaded.rootURI)): cannot read it again: \(error.reason)")
        }
        var editor = PlaylistEditor(bytes: original)
        for variant in analysis.variants {
            guard let stream = variant.stream, let (peak, average) = plan.declaredValues(for: variant) else { continue }
            do {
                try editor.setAttribute("BANDWIDTH", to: peak, onTagAtLine: stream.line)
                try editor.setAttribute("AVERAGE-BANDWIDTH", to: average, onTagAtLine: stream.line)
            } catch {
                throw EmbedError(
                    "\(StreamLayout.file(analysis.loaded.rootURI)):\(stream.line): cannot update BANDWIDTH: \(error)")
            }
        }
        return editor.bytes
    }
}
