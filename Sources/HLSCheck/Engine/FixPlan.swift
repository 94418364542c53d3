package import HLSPlaylist

/// One edit `hlscheck fix` makes to a playlist: what changes, on which line, which rule's finding
/// it settles, and the measurement (or spec section) that justifies it (docs/fix.md).
package struct PlaylistFix: Sendable, Hashable, Codable {
    /// What the edit does to the line.
    package enum Change: Sendable, Hashable, Codable {
        /// Sets attribute `name` of the tag on the line to `value` (written as given: quoted
        /// strings with their quotes); adds it at the end of the list when absent.
        case attribute(name: String, value: String)
        /// Sets the value of tag `tag` (after the colon; for EXTINF only the duration before the comma).
        case tagValue(tag: String, value: String)
        /// Inserts `text` as a new line after the line.
        case insertLine(String)
    }

    /// The playlist, as the analysis resolved it (its key in `LoadedStream`).
    package var playlist: String
    /// The 1-based line the edit applies to (for an insertion: the line it follows).
    package var line: Int
    /// The edit.
    package var change: Change
    /// The rule whose finding the edit settles.
    package var rule: String
    /// Why the new value is right: the measurement or spec section behind it.
    package var reason: String

    /// "BANDWIDTH=951000", "EXT-X-VERSION:4", "insert #EXT-X-PLAYLIST-TYPE:VOD": the edit in a few words.
    package var summary: String {
        switch change {
        case .attribute(let name, let value): return "\(name)=\(value)"
        case .tagValue(let tag, let value): return "\(tag):\(value)"
        case .insertLine(let text): return "insert \(text)"
        }
    }

    package init(playlist: String, line: Int, change: Change, rule: String, reason: String) {
        self.playlist = playlist
        self.line = line
        self.change = change
        self.rule = rule
        self.reason = reason
    }

    /// Applies the edit to `editor` (see ``FixPlan/apply(_:to:)`` for the order of several).
    func apply(to editor: inout PlaylistEditor) throws {
        switch change {
        case .attribute(let name, let value): try editor.setAttribute(name, to: value, onTagAtLine: line)
        case .tagValue(let tag, let value):
            try editor.setTagValue(value, onTagAtLine: line, upToComma: tag == "#EXTINF")
        case .insertLine(let text): try editor.insertLine(text, afterLine: line)
        }
    }

    /// The line as the edit leaves it, from the line as it was (`original`: its text without the
    /// line ending). For an insertion, the inserted line.
    package func proposedLine(from original: String) -> String {
        if case .insertLine(let text) = change { return text }
        var editor = PlaylistEditor(original)
        var relative = self
        relative.line = 1
        guard (try? relative.apply(to: &editor)) != nil else { return original }
        return editor.text
    }
}

/// A finding `hlscheck fix` leaves alone: no measurement settles it.
package struct UnfixedFinding: Sendable, Hashable {
    package var rule: String
    package var message: String
    package var location: SourceLocation?
}

/// Every edit the measurements of a stream prove, computed from its analysis without reading or
/// writing anything (docs/fix.md). Each edit is made only when the value it writes is measured
/// from every segment it concerns (a partial measurement proves nothing about the rest), or
/// follows from the playlist itself (EXT-X-PLAYLIST-TYPE:VOD after EXT-X-ENDLIST, the version
/// its features need).
package struct FixPlan: Sendable {
    /// The edits, in playlist order (root first), then by line.
    package private(set) var fixes: [PlaylistFix] = []

    /// The rules whose findings an edit of this kind settles: `fix` never lists them as needing a person.
    package static let fixableRules: Set<String> = [
        "bandwidth-below-peak", "bandwidth-above-peak", "average-bandwidth-mismatch", "average-bandwidth-missing",
        "codecs-mismatch", "codecs-missing", "codecs-sample-entry-mismatch", "resolution-mismatch",
        "resolution-missing",
        "frame-rate-missing", "frame-rate-mismatch", "playlist-type-missing", "independent-segments-missing",
        "target-duration-exceeded", "version-too-low", "extinf-duration-mismatch",
    ]

    /// The headroom policy: a measured bit rate rounded up to the next multiple of 1 000 bit/s
    /// (a value already on one stays). Never below the measurement, at most 999 bit/s above it —
    /// far inside the 10 % Apple allows (AS 1.26, 1.27) — and stable: fixing twice changes nothing.
    package static func declaredBitrate(measured: Int) -> Int {
        guard measured > 0 else { return measured }
        let (rounded, overflow) = measured.addingReportingOverflow(999)
        return overflow ? measured : rounded / 1000 * 1000
    }

    /// FRAME-RATE as bis-22 §4.4.6.2 writes it: three decimals.
    package static func frameRateText(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// The plan for `analysis`, with the check's tolerances.
    ///
    /// The plan is a fixed point — run on what it writes, it has nothing to do (docs/fix.md): the
    /// durations come first, and every value derived from them is derived from the corrected
    /// ones. A bit rate is bytes over EXTINF seconds (RFC 8216 §4.3.4.2), so BANDWIDTH and
    /// AVERAGE-BANDWIDTH are measured again over the EXTINF values and EXT-X-TARGETDURATION
    /// this plan writes, as the check of the written stream measures them.
    package init(_ analysis: StreamAnalysis, configuration: CheckConfiguration) {
        var corrected = analysis.measurements
        var durationsChange = false
        for (uri, playlist, media) in Self.mediaPlaylists(analysis) {
            let measurement = analysis.measurements[uri]
            if let fixed = mediaFixes(uri, playlist, media, measurement: measurement, configuration),
                let measurement, let records = measurement.records.over(fixed.segments)
            {
                corrected[uri] = PlaylistMeasurement(
                    playlistURI: uri, playlist: fixed, records: records)
                durationsChange = true
            }
        }
        if let multivariant = analysis.multivariant {
            // The same variants, over the corrected measurements (linear in variants and renditions).
            let variants =
                !durationsChange
                ? analysis.variants : StreamAnalysis(loaded: analysis.loaded, measurements: corrected).variants
            for variant in variants {
                if let stream = variant.stream {
                    variantFixes(variant, stream, rootURI: analysis.loaded.rootURI, configuration)
                }
            }
            independentSegments(
                analysis, header: multivariant.versionLine ?? 1, present: multivariant.independentSegments)
            versionFix(
                analysis.loaded.rootURI, declared: multivariant.version, line: multivariant.versionLine,
                required: analysis.root.requiredVersion)
        } else if let media = analysis.root.media {
            independentSegments(analysis, header: media.versionLine ?? 1, present: media.independentSegments)
        }
        // Root first, then by playlist and line; for one line in the order planned (a tag gains
        // its attributes in that order).
        let root = analysis.loaded.rootURI
        fixes = fixes.enumerated().sorted {
            ($0.element.playlist == root ? "" : $0.element.playlist, $0.element.line, $0.offset)
                < ($1.element.playlist == root ? "" : $1.element.playlist, $1.element.line, $1.offset)
        }.map(\.element)
        buildIndex()
    }

    /// The edits of one playlist.
    package func fixes(ofPlaylist uri: String) -> [PlaylistFix] {
        fixes.filter { $0.playlist == uri }
    }

    /// The edit that settles `diagnostic` (its location a resolved URI, as rules report it): of
    /// its rule in its playlist, on its line — or, for a finding about the playlist as a whole
    /// (a header tag, the target duration of a long segment), the plan's one edit of that rule there.
    package func fix(for diagnostic: Diagnostic) -> PlaylistFix? {
        guard let location = diagnostic.location else { return nil }
        // By index: a playlist of 20 000 segments may have as many findings and edits.
        let key = FixKey(rule: diagnostic.rule, playlist: location.uri, line: location.line)
        if let same = index.onLine[key] { return fixes[same] }
        return index.wholePlaylist[FixKey(rule: diagnostic.rule, playlist: location.uri, line: 0)].map { fixes[$0] }
    }

    private struct FixKey: Hashable {
        var rule: String
        var playlist: String
        var line: Int
    }

    /// Where `fix(for:)` finds an edit: by rule, playlist and line; and for a finding about the
    /// playlist as a whole, its first edit of that rule that is not about one line's attribute
    /// or one segment's EXTINF.
    private struct FixIndex {
        var onLine: [FixKey: Int] = [:]
        var wholePlaylist: [FixKey: Int] = [:]
    }

    private var index = FixIndex()

    private mutating func buildIndex() {
        for (position, fix) in fixes.enumerated() {
            let key = FixKey(rule: fix.rule, playlist: fix.playlist, line: fix.line)
            if index.onLine[key] == nil { index.onLine[key] = position }
            let aboutThePlaylist: Bool
            switch fix.change {
            case .insertLine: aboutThePlaylist = true
            case .tagValue(let tag, _): aboutThePlaylist = tag != "#EXTINF"
            case .attribute: aboutThePlaylist = false
            }
            let whole = FixKey(rule: fix.rule, playlist: fix.playlist, line: 0)
            if aboutThePlaylist, index.wholePlaylist[whole] == nil { index.wholePlaylist[whole] = position }
        }
    }

    /// The resolved URIs of the playlists the plan changes, root first.
    package var playlists: [String] {
        var seen = Set<String>()
        return fixes.map(\.playlist).filter { seen.insert($0).inserted }
    }

    /// `bytes` with `fixes` (all of one playlist) applied: from the last line up, so that an
    /// inserted line never moves a line an edit still has to find; every other byte unchanged.
    package static func apply(_ fixes: [PlaylistFix], to bytes: [UInt8]) throws -> [UInt8] {
        var editor = PlaylistEditor(bytes: bytes)
        // Stable for one line: a tag gains its attributes in the order the plan lists them.
        for fix in fixes.enumerated().sorted(by: { ($0.element.line, $1.offset) > ($1.element.line, $0.offset) }).map(
            \.element)
        {
            try fix.apply(to: &editor)
        }
        return editor.bytes
    }

    // MARK: - Multivariant playlist

    private mutating func variantFixes(
        _ variant: VariantAnalysis, _ stream: VariantStream, rootURI: String, _ configuration: CheckConfiguration
    ) {
        func set(_ name: String, _ value: String, _ rule: String, _ reason: String) {
            fixes.append(
                PlaylistFix(
                    playlist: rootURI, line: stream.line, change: .attribute(name: name, value: value), rule: rule,
                    reason: reason))
        }
        // Nothing below is proven by some of the segments only.
        guard variant.isMeasurementComplete else { return }
        let combination = variant.combinationPhrase

        // BANDWIDTH is the peak (bis-22 §4.4.6.2): below it by any amount is wrong; above it is
        // a choice the check accepts within the tolerance.
        // Without a tolerance (rfc8216, which follows bis-22 §4.4.6.2 to the bit) the value is
        // the measured one; with one, it is rounded up to the next 1 000 bit/s, which the
        // tolerance absorbs.
        let exact = configuration.bandwidthTolerance == 0
        func written(_ measured: Int) -> (value: String, how: String) {
            exact
                ? (String(measured), "")
                : (String(Self.declaredBitrate(measured: measured)), ", rounded up to the next 1 000 bit/s")
        }
        // Each value as the line will declare it, written once.
        var bandwidth: (value: String, rule: String, reason: String)?
        if let peak = variant.measuredPeakBitrate, peak > 0, let declared = stream.bandwidth {
            let (value, how) = written(peak)
            if declared < peak {
                bandwidth = (value, "bandwidth-below-peak", "measured peak \(peak) bit/s\(combination)\(how)")
            } else if Double(declared) > Double(peak) * (1 + configuration.bandwidthTolerance) {
                bandwidth = (value, "bandwidth-above-peak", "measured peak \(peak) bit/s\(combination)\(how)")
            }
        }
        var average: (value: String, rule: String, reason: String)?
        if let measured = variant.measuredAverageBitrate, measured > 0 {
            let (value, how) = written(measured)
            if let declared = stream.averageBandwidth {
                if declared > 0,
                    abs(Double(measured) - Double(declared)) > Double(declared) * configuration.bandwidthTolerance
                {
                    average = (value, "average-bandwidth-mismatch", "measured average \(measured) bit/s\(how)")
                }
            } else {
                average = (value, "average-bandwidth-missing", "measured average \(measured) bit/s\(how); AS 9.14")
            }
        }
        // BANDWIDTH is the peak, AVERAGE-BANDWIDTH the average (bis-22 §4.4.6.2): a line never
        // declares an average above its peak. Where the average this plan writes is above the
        // BANDWIDTH the line keeps, BANDWIDTH is raised to it.
        if let written = average, let declaredAverage = Int(written.value),
            let declaredPeak = bandwidth.flatMap({ Int($0.value) }) ?? stream.bandwidth, declaredAverage > declaredPeak
        {
            bandwidth = (
                written.value, bandwidth?.rule ?? "bandwidth-below-peak",
                "AVERAGE-BANDWIDTH is \(written.value) bit/s and the peak is never below the average"
            )
        }
        if let bandwidth { set("BANDWIDTH", bandwidth.value, bandwidth.rule, bandwidth.reason) }
        if let average { set("AVERAGE-BANDWIDTH", average.value, average.rule, average.reason) }

        // CODECS: every format in the segments, nothing else (bis-22 §4.4.6.2, RFC 6381).
        let measurements = variant.combinationMeasurements
        let inspectedAll =
            measurements.allSatisfy(\.isComplete) && measurements.allSatisfy { $0.records.allSatisfy(\.isInspected) }
        if inspectedAll {
            let detected = variant.detectedCodecs
            if !detected.isEmpty {
                let ordered = Self.orderedCodecs(detected, declared: stream.codecs ?? [])
                let value = "\"\(ordered.joined(separator: ","))\""
                if stream.codecs == nil {
                    set("CODECS", value, "codecs-missing", "the codecs of the segments; RFC 6381")
                } else if let verdict = variant.codecsVerdict, verdict.isWrong {
                    set("CODECS", value, "codecs-mismatch", "the codecs of the segments, RFC 6381: \(verdict.phrase)")
                } else if variant.sampleEntryMismatches.isEmpty == false {
                    set(
                        "CODECS", value, "codecs-sample-entry-mismatch",
                        "the sample entries of the fMP4 segments; RFC 6381 §3.3")
                }
            }
        }

        // RESOLUTION and FRAME-RATE of the video the segments hold.
        if let actual = variant.measuredResolution {
            if let declared = stream.resolution {
                if declared != actual {
                    set(
                        "RESOLUTION", actual.description, "resolution-mismatch",
                        "the video of the segments is \(actual)")
                }
            } else {
                set(
                    "RESOLUTION", actual.description, "resolution-missing",
                    "the video of the segments is \(actual); AS 9.2")
            }
        }
        // A rate from a timestamp span of a few ticks (a damaged segment) is no frame rate to declare.
        if inspectedAll, let measured = measurements.compactMap(\.measuredFrameRate).max(), measured > 0,
            measured <= Self.highestFrameRate
        {
            let text = Self.frameRateText(measured)
            if let declared = stream.frameRate {
                if declared > 0, abs(declared - measured) > Self.frameRateTolerance * measured {
                    set(
                        "FRAME-RATE", text, "frame-rate-mismatch",
                        "the video of the segments runs at \(text) frames per second")
                }
            } else {
                set(
                    "FRAME-RATE", text, "frame-rate-missing",
                    "the video of the segments runs at \(text) frames per second; AS 9.15")
            }
        }
    }

    /// The highest frame rate `fix` writes: above it the measurement is no video's rate.
    static let highestFrameRate = 1000.0

    /// How far a declared FRAME-RATE may be from the measured one (29.97 written as 30 is 0.1 %).
    static let frameRateTolerance = 0.02

    /// The detected codec strings, video first, then audio, then the rest, each kind in the
    /// declared order where the declaration named the format.
    static func orderedCodecs(_ detected: [String], declared: [String]) -> [String] {
        let rank: (String) -> Int = { codec in
            switch CodecKind(codec: codec) {
            case .video: return 0
            case .audio: return 1
            case .text: return 2
            case .unknown: return 3
            }
        }
        let position: (String) -> Int = { codec in
            declared.firstIndex { CodecEquivalence.format($0) == CodecEquivalence.format(codec) } ?? declared.count
        }
        return detected.sorted { (rank($0), position($0), $0) < (rank($1), position($1), $1) }
    }

    /// EXT-X-INDEPENDENT-SEGMENTS, after `header` (EXT-X-VERSION's line, else #EXTM3U's), when every segment of every measured playlist was inspected and
    /// each one with video starts with a keyframe (bis-22 §4.4.2.1; AS 9.11, 9.12). Audio frames
    /// decode on their own.
    private mutating func independentSegments(_ analysis: StreamAnalysis, header: Int, present: Bool) {
        guard !present, !analysis.measurements.isEmpty else { return }
        var video = false
        for measurement in analysis.measurements.values {
            guard measurement.isComplete, !measurement.records.isEmpty else { return }
            for record in measurement.records {
                guard record.isInspected else { return }
                if record.hasVideo {
                    video = true
                    guard record.videoStartsWithKeyframe == true else { return }
                }
            }
        }
        fixes.append(
            PlaylistFix(
                playlist: analysis.loaded.rootURI, line: header, change: .insertLine("#EXT-X-INDEPENDENT-SEGMENTS"),
                rule: "independent-segments-missing",
                reason: video
                    ? "every segment with video starts with a keyframe; AS 9.11"
                    : "every segment is audio, which decodes on its own; bis-22 §4.4.2.1"))
    }

    // MARK: - Media playlists

    /// The edits of one media playlist; returns the playlist as they leave its EXTINF values and
    /// EXT-X-TARGETDURATION (each as written, three decimals), nil when they leave them as they are.
    private mutating func mediaFixes(
        _ uri: String, _ playlist: Playlist, _ media: MediaPlaylist, measurement: PlaylistMeasurement?,
        _ configuration: CheckConfiguration
    ) -> MediaPlaylist? {
        var fixed = media
        var changed = false
        // EXTINF from the measured duration, beyond the check's tolerance (bis-22 §4.4.4.1).
        // How long each segment lasts for EXT-X-TARGETDURATION: its EXTINF (as fixed), or its
        // measured duration where that is longer (bis-22 §6.2.1, AS 7.7; target-duration-exceeded).
        var lasting = media.segments.map(\.duration)
        var decimals = false
        if let measurement {
            // Records follow the segments that carry media (GAP segments have none).
            let segments = media.segments
            for (index, record) in zip(segments.indices.filter { !segments[$0].gap }, measurement.records) {
                if record.isInspected, let measured = record.measuredDuration, measured.isFinite {
                    lasting[index] = max(lasting[index], measured)
                }
                guard let line = segments[index].extinfLine,
                    let measured = record.measuredDuration, record.problem == nil, measured > 0,
                    abs(measured - record.extinf) > configuration.durationTolerance
                else { continue }
                let text = seconds(measured)
                lasting[index] = measured
                decimals = true
                // What the check of the written playlist reads back.
                fixed.segments[index].duration = Double(text) ?? measured
                changed = true
                fixes.append(
                    PlaylistFix(
                        playlist: uri, line: line, change: .tagValue(tag: "#EXTINF", value: text),
                        rule: "extinf-duration-mismatch",
                        reason: "the segment lasts \(text) s by its timestamps"))
            }
        }
        // EXT-X-TARGETDURATION: at least every segment's duration rounded (bis-22 §4.4.3.1, §6.2.1).
        if let target = media.targetDuration, let line = media.targetDurationLine {
            let longest = lasting.map { $0.rounded() }.max() ?? 0
            if longest.isFinite, longest > Double(target), longest <= Double(ValueLimits.maximumTargetDuration) {
                fixes.append(
                    PlaylistFix(
                        playlist: uri, line: line,
                        change: .tagValue(tag: "#EXT-X-TARGETDURATION", value: String(Int(longest))),
                        rule: "target-duration-exceeded", reason: "the longest segment lasts \(Int(longest)) s rounded")
                )
                fixed.targetDuration = Int(longest)
                changed = true
            }
        }
        // EXT-X-PLAYLIST-TYPE:VOD on a playlist that has ended (AS 8.6): EXT-X-ENDLIST says no
        // segment will be added, which is what VOD declares (bis-22 §4.4.3.5).
        if media.endList, media.playlistType == nil {
            let after = media.targetDurationLine ?? media.versionLine ?? 1
            fixes.append(
                PlaylistFix(
                    playlist: uri, line: after, change: .insertLine("#EXT-X-PLAYLIST-TYPE:VOD"),
                    rule: "playlist-type-missing",
                    reason: "the playlist ends with EXT-X-ENDLIST; AS 8.6"))
        }
        // EXT-X-VERSION: the lowest the features need (RFC 8216 §7), decimal EXTINF among them.
        let required = max(playlist.requiredVersion, decimals ? 3 : 1)
        versionFix(uri, declared: media.version, line: media.versionLine, required: required)
        return changed ? fixed : nil
    }

    private mutating func versionFix(_ uri: String, declared: Int?, line: Int?, required: Int) {
        guard required > (declared ?? 1) else { return }
        let reason = "the playlist's features need version \(required); RFC 8216 §7"
        if let line {
            fixes.append(
                PlaylistFix(
                    playlist: uri, line: line, change: .tagValue(tag: "#EXT-X-VERSION", value: String(required)),
                    rule: "version-too-low", reason: reason))
        } else {
            fixes.append(
                PlaylistFix(
                    playlist: uri, line: 1, change: .insertLine("#EXT-X-VERSION:\(required)"), rule: "version-too-low",
                    reason: reason))
        }
    }

    /// Every media playlist of the stream that was read, in URI order (the root when it is one).
    package static func mediaPlaylists(_ analysis: StreamAnalysis) -> [(String, Playlist, MediaPlaylist)] {
        if let media = analysis.root.media { return [(analysis.loaded.rootURI, analysis.root, media)] }
        var result: [(String, Playlist, MediaPlaylist)] = []
        for (uri, playlist) in analysis.loaded.mediaPlaylists.sorted(by: { $0.key < $1.key }) {
            if let media = playlist.media { result.append((uri, playlist, media)) }
        }
        return result
    }
}

// MARK: - Measured values the rules and the plan share

/// What CODECS says against what the segments hold.
struct CodecsVerdict {
    /// Formats in the segments that CODECS does not name.
    var undeclared: [String]
    /// Declared audio or video formats no segment holds (only when every segment was inspected).
    var absent: [String]
    var isWrong: Bool { !undeclared.isEmpty || !absent.isEmpty }

    /// `declared` CODECS against the `detected` codec strings; absence is a verdict only when
    /// every segment was inspected (`complete`). Nil without a declaration or a detected codec.
    init?(declared: [String], detected: [String], complete: Bool) {
        guard !declared.isEmpty, !detected.isEmpty else { return nil }
        let declaredKeys = Set(declared.map(CodecEquivalence.format))
        undeclared = detected.filter { !declaredKeys.contains(CodecEquivalence.format($0)) }
        let detectedKinds = Set(detected.map(CodecKind.init(codec:)))
        absent =
            complete
            ? declared.filter {
                let kind = CodecKind(codec: $0)
                return (kind == .audio || kind == .video) && !detectedKinds.contains(kind)
            } : []
    }
    var phrase: String {
        var parts: [String] = []
        if !undeclared.isEmpty { parts.append("the segments hold \(undeclared.joined(separator: ", ")), not declared") }
        // IMSC whose documents name no profile: the codec string names it (bis-22 §4.4.6.2).
        if undeclared.contains("stpp") {
            parts.append(
                "stpp is IMSC subtitles: declare it with its TTML profile, such as stpp.ttml.im1t (text) or stpp.ttml.im1i (image)"
            )
        }
        if !absent.isEmpty { parts.append("\(absent.joined(separator: ", ")) is declared but absent") }
        return parts.joined(separator: "; ")
    }
}

extension VariantAnalysis {
    /// The width × height of the video of the variant's own segments (the first that says), nil
    /// without video.
    package var measuredResolution: Resolution? {
        measurement?.records.lazy.compactMap(\.videoResolution).first
    }

    /// CODECS against the detected codecs; nil without CODECS or without detected codecs.
    var codecsVerdict: CodecsVerdict? {
        guard let declared = stream?.codecs else { return nil }
        return CodecsVerdict(
            declared: declared, detected: detectedCodecs, complete: combinationMeasurements.allSatisfy(\.isComplete))
    }

    /// "avc1.64001e is declared but the segments use avc3.64001e", for fMP4 segments only (in
    /// MPEG-TS both spellings describe the same stream).
    var sampleEntryMismatches: [String] {
        guard let declared = stream?.codecs, !declared.isEmpty else { return [] }
        let detected =
            combinationMeasurements
            .filter { $0.records.contains { $0.container == .fragmentedMP4 } }
            .flatMap(\.codecs)
        return Set(
            detected.compactMap { found -> String? in
                guard
                    let written = declared.first(where: {
                        CodecEquivalence.format($0) == CodecEquivalence.format(found)
                    }),
                    CodecEquivalence.sampleEntry(written) != CodecEquivalence.sampleEntry(found)
                else { return nil }
                return "\(written) is declared but the segments use \(found)"
            }
        ).sorted()
    }
}

/// The edit `hlscheck fix` proposes for one finding, as reports show it (JSON `fix`, SARIF
/// `fixes`, the HTML report's proposed line).
package struct ProposedFix: Sendable, Hashable, Codable {
    /// The playlist the edit changes (a file path in reports, like the finding's location).
    package var uri: String
    /// The 1-based line the edit changes, or after which it inserts a line.
    package var line: Int
    /// True when `text` is a new line inserted after `line`; false when it replaces `line`.
    package var inserted: Bool
    /// The line as the edit leaves it (or the inserted line).
    package var text: String
    /// The edit in words: what is written and from which measurement.
    package var description: String
}

extension FixPlan {
    /// `diagnostics` (locations still resolved URIs) with the edit that settles each, where the
    /// plan has one: the same edit `hlscheck fix` makes.
    package func proposing(_ diagnostics: [Diagnostic], in analysis: StreamAnalysis) -> [Diagnostic] {
        guard !fixes.isEmpty else { return diagnostics }
        var tagsByPlaylist: [String: [Int: Tag]] = [:]
        func original(_ fix: PlaylistFix) -> String? {
            if tagsByPlaylist[fix.playlist] == nil {
                let playlist =
                    fix.playlist == analysis.loaded.rootURI
                    ? analysis.root : analysis.loaded.mediaPlaylists[fix.playlist]
                tagsByPlaylist[fix.playlist] = Dictionary(
                    (playlist?.tags ?? []).map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return tagsByPlaylist[fix.playlist]?[fix.line].map { tag in tag.name + (tag.value.map { ":" + $0 } ?? "") }
        }
        return diagnostics.map { diagnostic in
            guard let fix = self.fix(for: diagnostic) else { return diagnostic }
            var proposed = diagnostic
            if case .insertLine(let text) = fix.change {
                proposed.fix = ProposedFix(
                    uri: fix.playlist, line: fix.line, inserted: true, text: text,
                    description: "\(fix.summary) (\(fix.reason))")
            } else if let line = original(fix) {
                proposed.fix = ProposedFix(
                    uri: fix.playlist, line: fix.line, inserted: false, text: fix.proposedLine(from: line),
                    description: "\(fix.summary) (\(fix.reason))")
            }
            return proposed
        }
    }
}
