import MediaFormats
import HLSCheck
import HLSPackaging
import HLSPlaylist
import MediaInspection
import MediaEncoding

/// Where in the stream `--poster-from-video` takes its picture: a share of the stream's
/// duration or a time from its start (the sum of EXTINF before it, as a player's seek bar counts).
package enum PosterFrameTime: Sendable, Hashable, CustomStringConvertible {
    /// This share of the duration, 0 ≤ share < 1.
    case share(Double)
    /// This many seconds from the start.
    case seconds(Double)

    /// 10 % in: past a title card or a fade from black, still near the start.
    package static let `default` = PosterFrameTime.share(0.1)

    /// Reads "10%", "12", "12.5", "1:30" or "1:02:03.5"; nil for anything else (a negative
    /// number, a share of 100 % or more, minutes or seconds of 60 or more).
    package init?(_ text: String) {
        let trimmed = text.trimmingWhiteSpace(newlines: false)
        if trimmed.hasSuffix("%") {
            guard let percent = Self.number(trimmed.dropLast()), percent < 100 else { return nil }
            self = .share(percent / 100)
            return
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            // Hours and minutes are whole numbers; below the largest unit each is under 60.
            guard let value = last ? Self.number(part) : Int(part).map(Double.init), value >= 0 else { return nil }
            if index > 0, value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        self = .seconds(seconds)
    }

    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text), value.isFinite, value >= 0
        else { return nil }
        return value
    }

    package var description: String {
        switch self {
        case .share(let share): return "\(VideoPoster.decimal(share * 100)) %"
        case .seconds(let seconds): return "\(VideoPoster.decimal(seconds)) s"
        }
    }
}

/// `--poster-from-video`: the poster is a picture of the stream itself, taken from the video
/// variant with the most pixels (the sharpest picture the stream has), then handed to the same
/// budget and `--fit` path as an `--image`.
enum VideoPoster {
    /// The picture at `time`, as a poster with `description`, and how to name it in messages
    /// ("the frame at 12.0 s of v2/index.m3u8"). Throws when the stream has no video variant,
    /// `time` lies beyond its end, or the segment there cannot be decoded.
    static func take(
        _ analysis: StreamAnalysis, at time: PosterFrameTime, description: String, input: String, maximumPixels: Int
    ) throws(EmbedError) -> (poster: Poster, name: String, note: String) {
        guard let variant = sharpestVideo(analysis), let playlist = variant.playlist,
            let measurement = variant.measurement
        else {
            throw EmbedError(
                "\(input): no variant carries video to take a poster from (--poster-from-video reads the video variant with the most pixels); give the poster with --image"
            )
        }
        let playlistFile = StreamLayout.file(variant.playlistURI)
        let total = playlist.segments.reduce(0) { $0 + $1.duration }
        let seconds: Double
        switch time {
        case .share(let share): seconds = total * share
        case .seconds(let value): seconds = value
        }
        guard total > 0, seconds < total else {
            throw EmbedError(
                "--poster-from-video \(time): beyond the end of \(playlistFile), whose segments last \(decimal(total)) s; give a time before it (or a share such as 10%)"
            )
        }
        // Where the time falls: the segment whose EXTINF span holds it. Records skip GAP
        // segments, so they are counted apart.
        var start = 0.0
        var recordIndex = 0
        for segment in playlist.segments {
            defer {
                start += segment.duration
                if !segment.gap { recordIndex += 1 }
            }
            guard seconds < start + segment.duration else { continue }
            let place = "\(playlistFile):\(segment.uriLine)"
            if segment.gap {
                throw EmbedError(
                    "--poster-from-video \(time): \(place): segment \(segment.uri) is a GAP, it has no picture; choose another time"
                )
            }
            if let key = segment.key, key.isEncrypting {
                throw EmbedError(
                    "--poster-from-video \(time): \(place): segment \(segment.uri) is encrypted (METHOD=\(key.method)): hlscheck cannot decode encrypted media; choose another time or give --image"
                )
            }
            let record = recordIndex < measurement.records.count ? measurement.records[recordIndex] : nil
            let path = StreamLayout.file(URIResolver.resolve(segment.uri, against: variant.playlistURI))
            let still: VideoStill
            do {
                still = try VideoStillGrabber.still(
                    segment: path, range: segment.byteRange.map { ($0.offset, $0.length) },
                    initSection: segment.map.map {
                        StreamLayout.file(URIResolver.resolve($0.uri, against: variant.playlistURI))
                    },
                    initRange: segment.map?.byteRange.map { ($0.offset, $0.length) },
                    container: record?.container ?? .unknown, offset: seconds - start, segmentStart: record?.firstPTS,
                    maximumPixels: maximumPixels)
            } catch {
                throw EmbedError(
                    "--poster-from-video \(time): \(place): segment \(segment.uri) does not decode to a picture (\(error.description)); choose another time or give --image"
                )
            }
            let poster: Poster
            do {
                poster = try Poster(image: still.jpeg, description: description)
            } catch {
                throw EmbedError(
                    "the frame at \(decimal(seconds)) s of \(playlistFile) is not usable as a poster: \(error.description)"
                )
            }
            let name = "the frame at \(decimal(seconds)) s of \(playlistFile)"
            let note =
                "took the poster from \(name) (\(segment.uri), \(still.width)x\(still.height), JPEG \(poster.data.count) bytes before fitting)"
            return (poster, name, note)
        }
        throw EmbedError(
            "--poster-from-video \(time): beyond the end of \(playlistFile), whose segments last \(decimal(total)) s")
    }

    /// The variant with video and the most pixels (measured, else declared RESOLUTION), the
    /// highest BANDWIDTH among equals; nil when no variant has video.
    static func sharpestVideo(_ analysis: StreamAnalysis) -> VariantAnalysis? {
        func pixels(_ variant: VariantAnalysis) -> Int {
            let measured = variant.measurement?.records.lazy.compactMap(\.videoResolution).first
            guard let resolution = measured ?? variant.stream?.resolution else { return 0 }
            return resolution.width * resolution.height
        }
        let candidates = analysis.variants.filter { variant in
            variant.playlist != nil && variant.measurement?.records.contains(where: \.hasVideo) == true
        }
        return candidates.max { a, b in
            (pixels(a), a.declaredBandwidth ?? 0) < (pixels(b), b.declaredBandwidth ?? 0)
        }
    }

    /// 12.5 → "12.5", 12 → "12", 0.1234 → "0.123": at most three decimals, none trailing.
    static func decimal(_ value: Double) -> String {
        var text = fixedPoint(value, decimals: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// What `embed` and `embed --add-audio-only` ask about their poster, so that both take it from
/// the video the same way.
protocol PosterChoosingRequest {
    var input: String { get }
    var poster: Poster? { get set }
    var posterName: String { get set }
    var posterDescription: String { get }
    var fit: Bool { get set }
    var posterFromVideo: PosterFrameTime? { get set }
    var configuration: CheckConfiguration { get }
    var report: @Sendable (String) -> Void { get }
}

extension EmbedRequest: PosterChoosingRequest {}
extension AudioOnlyRequest: PosterChoosingRequest {}

extension PosterChoosingRequest {
    /// With `--poster-from-video`: the frame taken from `analysis`'s video becomes the poster,
    /// fitted to the budget as with `--fit`, and the request no longer asks for a frame. Nothing
    /// when the poster is an image.
    mutating func takePosterFromVideo(_ analysis: StreamAnalysis) throws(EmbedError) {
        guard let time = posterFromVideo else { return }
        let taken = try VideoPoster.take(
            analysis, at: time, description: posterDescription, input: input,
            maximumPixels: configuration.limits.imagePixels)
        report(taken.note)
        poster = taken.poster
        posterName = taken.name
        fit = true
        posterFromVideo = nil
    }
}
