import HLSCheck

/// The bit-rate chart of one variant as inline SVG (docs/html-report.md, "Reading the chart"):
/// a bar per segment (bytes × 8 / EXTINF) over time, the poster's share of each bar shaded, the
/// window that sets the peak, and horizontal lines for BANDWIDTH, AVERAGE-BANDWIDTH and — for an
/// audio-only variant — the audio-only budget. A segment that could not be read is a hatched
/// hole; nothing is drawn from data that was not read.
struct BitrateChart {
    var series: BitrateSeries
    var variant: VariantSummary
    /// The audio-only budget line, for audio-only variants only.
    var budget: Int?
    /// Unique prefix for the ids inside this chart (pattern, title).
    var idPrefix: String

    /// More segments than this are drawn as this many bins (the largest bit rate of each).
    static let maximumBars = 600

    // Geometry of the SVG's coordinate system (viewBox); CSS scales it to the page.
    static let width = 760.0, height = 230.0
    // The right margin holds the reference lines' names and the top one the peak window's: text
    // outside the plot, where no bar or other label is drawn.
    static let left = 78.0, right = 84.0, top = 26.0, bottom = 40.0
    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }

    /// One drawn bar: a segment, or a bin of consecutive segments.
    struct Bar {
        var start: Double
        var duration: Double
        /// Nil when no segment of the bar was read.
        var bitrate: Int?
        /// The poster's part of `bitrate`, nil when the content is unknown.
        var posterBitrate: Int?
        /// Some segment of the bar was not read.
        var hasHole: Bool
        var firstLine: Int
        var lastLine: Int
        var segments: Range<Int>
    }

    /// A horizontal reference line.
    struct Reference {
        var name: String
        var value: Int
        var cssClass: String
        /// The name beside the line, in the chart's right margin (the legend has the full name and value).
        var shortName: String
    }

    var bars: [Bar] {
        let segments = series.segments
        guard segments.count > Self.maximumBars else {
            return segments.indices.map { index in
                let segment = segments[index]
                return Bar(
                    start: segment.start, duration: Self.seconds(segment.duration), bitrate: segment.bitrate,
                    posterBitrate: segment.bitrate == nil ? nil : segment.posterBitrate, hasHole: segment.bytes == nil,
                    firstLine: segment.line, lastLine: segment.line, segments: index..<index + 1)
            }
        }
        let size = (segments.count + Self.maximumBars - 1) / Self.maximumBars
        return stride(from: 0, to: segments.count, by: size).map { first in
            let range = first..<min(first + size, segments.count)
            let group = segments[range]
            let largest = group.filter { $0.bitrate != nil }.max { ($0.bitrate ?? 0) < ($1.bitrate ?? 0) }
            return Bar(
                start: group.first?.start ?? 0, duration: group.reduce(0) { $0 + Self.seconds($1.duration) },
                bitrate: largest?.bitrate, posterBitrate: largest?.posterBitrate,
                hasHole: group.contains { $0.bytes == nil }, firstLine: group.first?.line ?? 0,
                lastLine: group.last?.line ?? 0,
                segments: range)
        }
    }

    var references: [Reference] {
        var lines: [Reference] = []
        if let value = variant.declaredBandwidth {
            lines.append(Reference(name: "BANDWIDTH", value: value, cssClass: "ref-bandwidth", shortName: "BANDWIDTH"))
        }
        if let value = variant.declaredAverageBandwidth {
            lines.append(
                Reference(name: "AVERAGE-BANDWIDTH", value: value, cssClass: "ref-average", shortName: "AVERAGE"))
        }
        if let budget {
            lines.append(
                Reference(name: "audio-only budget", value: budget, cssClass: "ref-budget", shortName: "budget"))
        }
        return lines
    }

    static func seconds(_ duration: Double) -> Double { duration.isFinite && duration > 0 ? duration : 0 }

    /// The top of the y axis and its tick step: a round number above everything drawn.
    func scale(_ bars: [Bar]) -> (top: Double, step: Double) {
        let values = bars.compactMap(\.bitrate) + references.map(\.value) + [series.peakBitrate ?? 0]
        // A hostile BANDWIDTH near Int.max must not push a tick past what an Int holds.
        let largest = min(Double(values.max() ?? 0), 1e17)
        guard largest > 0 else { return (1000, 250) }
        let rough = largest * 1.08 / 4
        let magnitude = pow10(floorLog10(rough))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        return ((largest * 1.08 / step).rounded(.up) * step, step)
    }

    private func floorLog10(_ value: Double) -> Int {
        var exponent = 0, scaled = value
        while scaled >= 10 { scaled /= 10; exponent += 1 }
        while scaled < 1 && exponent > -12 { scaled *= 10; exponent -= 1 }
        return exponent
    }

    private func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        if exponent >= 0 { for _ in 0..<exponent { value *= 10 } } else { for _ in 0..<(-exponent) { value /= 10 } }
        return value
    }

    /// "0:30", "1:02:00", or "4.5 s" below a minute when the step is fractional.
    static func timeLabel(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "?" }
        let whole = Int(seconds.rounded())
        if seconds < 60 && seconds != seconds.rounded() { return "\(format(seconds, digits: 1)) s" }
        if whole < 60 { return "\(whole) s" }
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let mmss = (minutes < 10 && hours > 0 ? "0" : "") + "\(minutes):" + (secs < 10 ? "0" : "") + "\(secs)"
        return hours > 0 ? "\(hours):\(mmss)" : mmss
    }

    static func timeStep(_ duration: Double) -> Double {
        let rough = duration / 8
        return [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400].first {
            $0 >= rough
        }
            ?? (rough / 86400).rounded(.up) * 86400
    }

    static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "?" }
        var factor = 1.0
        for _ in 0..<digits { factor *= 10 }
        let scaled = Int((value * factor).rounded())
        guard digits > 0 else { return String(scaled) }
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled), unit = Int(factor)
        let fraction = String(magnitude % unit)
        return "\(sign)\(magnitude / unit)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// SVG coordinates use two decimals: enough for a crisp chart, short in the file.
    static func coordinate(_ value: Double) -> String { format(value, digits: 2) }

    func write(to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let bars = bars
        let duration = series.duration.isFinite ? series.duration : 0
        let (yTop, yStep) = scale(bars)
        let plot = Plot(
            duration: duration, yTop: yTop, yStep: yStep, width: plotWidth, height: plotHeight)
        try writeStart(bars, to: writer)
        try writeGrid(plot, to: writer)
        try writePeakWindow(plot, to: writer)
        try writeBars(bars, plot, to: writer)
        try writeReferences(plot, to: writer)
        let c = Self.coordinate
        try writer.fullElement(
            "line",
            [
                "x1": c(Self.left), "x2": c(Self.left + plotWidth), "y1": c(Self.top + plotHeight),
                "y2": c(Self.top + plotHeight),
                "class": "axis",
            ])
        try writer.fullEndElement()  // svg
    }

    /// Where a time (x) and a bit rate (y) are drawn.
    private struct Plot {
        var duration: Double, yTop: Double, yStep: Double, width: Double, height: Double
        func x(_ seconds: Double) -> Double { BitrateChart.left + (duration > 0 ? seconds / duration * width : 0) }
        func y(_ bitrate: Double) -> Double { BitrateChart.top + height - min(max(bitrate / yTop, 0), 1) * height }
    }

    /// The `svg` element opened, with its accessible title and description and the hatch pattern of holes.
    private func writeStart(_ bars: [Bar], to writer: XMLDocumentWriter) throws(XMLWriterError) {
        try writer.startElement("svg")
        try writer.attribute("viewBox", "0 0 \(Int(Self.width)) \(Int(Self.height))")
        try writer.attribute("class", "chart")
        try writer.attribute("role", "img")
        try writer.attribute("aria-labelledby", "\(idPrefix)-title \(idPrefix)-desc")
        try writer.element("title", attributes: ["id": "\(idPrefix)-title"], text: "Segment bit rate of \(variant.uri)")
        try writer.element("desc", attributes: ["id": "\(idPrefix)-desc"], text: description(bars))

        try writer.startElement("defs")
        try writer.startElement("pattern")
        try writer.attribute("id", "\(idPrefix)-hole")
        try writer.attribute("width", "6")
        try writer.attribute("height", "6")
        try writer.attribute("patternUnits", "userSpaceOnUse")
        try writer.attribute("patternTransform", "rotate(45)")
        try writer.element("rect", attributes: ["width": "6", "height": "6", "class": "hole-ground"])
        try writer.element("line", attributes: ["x1": "0", "y1": "0", "x2": "0", "y2": "6", "class": "hole-stroke"])
        try writer.fullEndElement()
        try writer.fullEndElement()
    }

    /// The grid with the y axis labels, and the time ticks.
    private func writeGrid(_ plot: Plot, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let c = Self.coordinate
        // Grid and y axis labels.
        try writer.startElement("g")
        try writer.attribute("class", "grid")
        var tick = 0.0
        while tick <= plot.yTop + plot.yStep / 2 {
            try writer.fullElement(
                "line",
                ["x1": c(Self.left), "x2": c(Self.left + plotWidth), "y1": c(plot.y(tick)), "y2": c(plot.y(tick))])
            try writer.fullElement(
                "text", ["x": c(Self.left - 8), "y": c(plot.y(tick) + 4), "class": "tick-y"],
                text: tick == 0 ? "0" : Int(tick).formattedBitrate)
            tick += plot.yStep
        }
        if plot.duration > 0 {
            let step = Self.timeStep(plot.duration)
            var time = 0.0
            while time <= plot.duration + step / 1000 {
                try writer.fullElement(
                    "line",
                    [
                        "x1": c(plot.x(time)), "x2": c(plot.x(time)), "y1": c(Self.top + plotHeight),
                        "y2": c(Self.top + plotHeight + 5),
                    ])
                // The last label ends at the plot's edge instead of overflowing it.
                let nearEdge = plot.x(time) > Self.left + plotWidth - 24
                try writer.fullElement(
                    "text",
                    [
                        "x": c(plot.x(time)), "y": c(Self.top + plotHeight + 18),
                        "class": nearEdge ? "tick-x end" : "tick-x",
                    ],
                    text: Self.timeLabel(time))
                time += step
            }
        }
        try writer.fullElement(
            "text", ["x": c(Self.left + plotWidth), "y": c(Self.height - 4), "class": "axis-title end"],
            text: "time from the start of the playlist")
        try writer.fullEndElement()
    }

    /// The peak window: the run of segments whose bit rate is the playlist's peak.
    private func writePeakWindow(_ plot: Plot, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let c = Self.coordinate
        if let window = series.peakWindow, let first = series.segments[safe: window.lowerBound],
            let last = series.segments[safe: window.upperBound - 1], let peak = series.peakBitrate
        {
            let x0 = plot.x(first.start), x1 = plot.x(last.start + Self.seconds(last.duration))
            try writer.startElement("g")
            try writer.attribute("class", "peak-window")
            try writer.fullElement(
                "rect",
                [
                    "x": c(x0), "y": c(Self.top), "width": c(max(1, x1 - x0)), "height": c(plotHeight),
                    "class": "window",
                ],
                title:
                    "peak window: \(window.count) segment\(window.count == 1 ? "" : "s") from \(Self.timeLabel(first.start)), \(peak.formattedBitrate)"
            )
            try writer.fullElement(
                "line",
                [
                    "x1": c(x0), "x2": c(max(x1, x0 + 1)), "y1": c(plot.y(Double(peak))),
                    "y2": c(plot.y(Double(peak))),
                    "class": "peak-line",
                ])
            // Above the plot, over the window's start (its end when the window ends the playlist).
            let nearEnd = x0 > Self.left + plotWidth - 80
            try writer.fullElement(
                "text",
                [
                    "x": c(nearEnd ? max(x1, x0 + 1) : x0), "y": c(Self.top - 6),
                    "class": nearEnd ? "window-label end" : "window-label",
                ],
                text: "peak window")
            try writer.fullEndElement()
        }
    }

    /// Bars: the segment's bit rate, the poster's share on top of it, holes hatched.
    private func writeBars(_ bars: [Bar], _ plot: Plot, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let c = Self.coordinate
        try writer.startElement("g")
        try writer.attribute("class", "bars")
        let gap = bars.count <= 120 ? 1.0 : 0
        for bar in bars {
            let x0 = plot.x(bar.start), width = max(0.6, plot.x(bar.start + bar.duration) - x0 - gap)
            let what =
                bar.segments.count == 1
                ? "segment at line \(bar.firstLine)" : "segments at lines \(bar.firstLine)–\(bar.lastLine)"
            let time = "\(Self.timeLabel(bar.start))–\(Self.timeLabel(bar.start + bar.duration))"
            guard let bitrate = bar.bitrate else {
                // Read but without a duration (EXTINF 0): no rate to draw, and no hole either.
                guard bar.hasHole else { continue }
                try writer.fullElement(
                    "rect",
                    [
                        "x": c(x0), "y": c(Self.top), "width": c(width), "height": c(plotHeight), "class": "hole",
                        "fill": "url(#\(idPrefix)-hole)",
                    ],
                    title: "\(what), \(time): not read, no data")
                continue
            }
            let top = plot.y(Double(bitrate)), base = plot.y(0)
            var title = "\(what), \(time): \(bitrate.formattedBitrate)"
            if let poster = bar.posterBitrate, poster > 0 { title += ", poster \(poster.formattedBitrate)" }
            if bar.posterBitrate == nil { title += ", content not inspected" }
            if bar.hasHole { title += " (some segments of this bin not read)" }
            try writer.startElement("rect")
            // A segment's bar is a link target: a finding at the segment's line points here.
            if bar.segments.count == 1 { try writer.attribute("id", segmentAnchor(line: bar.firstLine)) }
            for (key, value) in [
                "x": c(x0), "y": c(top), "width": c(width), "height": c(max(0, base - top)),
                "class": bar.posterBitrate == nil ? "bar unknown" : "bar",
            ] as KeyValuePairs {
                try writer.attribute(key, value)
            }
            try writer.element("title", text: title)
            try writer.fullEndElement()
            if let poster = bar.posterBitrate, poster > 0 {
                let posterBase = plot.y(Double(max(0, bitrate - poster)))
                try writer.fullElement(
                    "rect",
                    [
                        "x": c(x0), "y": c(top), "width": c(width), "height": c(max(0, posterBase - top)),
                        "class": "poster-share",
                    ],
                    title: "poster: \(poster.formattedBitrate) of \(bitrate.formattedBitrate)")
            }
            if bar.hasHole {
                // Under the axis, at least 3 units wide so that a one-pixel bin's mark shows.
                try writer.fullElement(
                    "rect",
                    [
                        "x": c(x0), "y": c(base + 1), "width": c(max(width, 3)), "height": "5", "class": "hole",
                        "fill": "url(#\(idPrefix)-hole)",
                    ])
            }
        }
        try writer.fullEndElement()
    }

    /// Reference lines (budget, BANDWIDTH …), named in the right margin level with the line.
    private func writeReferences(_ plot: Plot, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let c = Self.coordinate
        // Reference lines, named in the right margin level with the line; when lines are close,
        // the higher names move up so that none overlap (the top margin takes the last ones).
        let lines = references.sorted { $0.value < $1.value }
        var labelY: [Double] = []
        for line in lines {
            let position = plot.y(Double(line.value)) + 4
            labelY.append(max(min(position, (labelY.last ?? .infinity) - 13), 10))
        }
        try writer.startElement("g")
        try writer.attribute("class", "references")
        for (line, textY) in zip(lines, labelY) {
            let lineY = c(plot.y(Double(line.value)))
            try writer.fullElement(
                "line",
                ["x1": c(Self.left), "x2": c(Self.left + plotWidth), "y1": lineY, "y2": lineY, "class": line.cssClass],
                title: "\(line.name) \(line.value.formattedBitrate)")
            try writer.fullElement(
                "text", ["x": c(Self.left + plotWidth + 6), "y": c(textY), "class": "ref-label \(line.cssClass)"],
                text: line.shortName)
        }
        try writer.fullEndElement()
    }

    /// The id of the bar of the segment at `line` of the playlist (drawn one bar per segment).
    func segmentAnchor(line: Int) -> String { "\(idPrefix)-L\(line)" }

    /// Whether a finding at `line` of the chart's playlist has a bar to point to.
    func hasBar(line: Int) -> Bool {
        series.segments.count <= Self.maximumBars && series.segments.contains { $0.line == line && $0.bitrate != nil }
    }

    /// The chart in words, for screen readers (and the report's readers who hover nothing).
    func description(_ bars: [Bar]) -> String {
        let count = series.segments.count
        let unread = series.segments.filter { $0.bytes == nil }.count
        var parts = ["\(count) segment\(count == 1 ? "" : "s") over \(Self.timeLabel(series.duration))"]
        if bars.count < count { parts.append("drawn as \(bars.count) bins, each the largest segment bit rate in it") }
        if unread > 0 { parts.append("\(unread) not read (hatched, no data)") }
        if let peak = series.peakBitrate { parts.append("peak \(peak.formattedBitrate)") }
        if let average = series.averageBitrate { parts.append("average \(average.formattedBitrate)") }
        for line in references { parts.append("\(line.name) \(line.value.formattedBitrate)") }
        return parts.joined(separator: "; ")
    }
}

extension XMLDocumentWriter {
    /// An element with attributes, optional text and an optional SVG `<title>` (a tooltip), always
    /// closed with an end tag.
    func fullElement(
        _ name: String, _ attributes: KeyValuePairs<String, String> = [:], text content: String? = nil,
        title: String? = nil
    ) throws(XMLWriterError) {
        try startElement(name)
        for (key, value) in attributes { try attribute(key, value) }
        if let title { try element("title", text: title) }
        if let content { try text(content) }
        try fullEndElement()
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
