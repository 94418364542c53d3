/// The HTML report's style sheet, inline in every report (no network). A `StaticString`: it is
/// the only markup written unescaped, and it can never hold anything read from an input.
/// Colours keep WCAG AA contrast (4.5:1 for text) on their backgrounds, in the light scheme and
/// the dark one (`prefers-color-scheme: dark`: the same variables, other values); no `>` or `&`
/// appears, so the sheet reads the same to an HTML and an XML parser.
enum HTMLStyleSheet {
    static let css: StaticString = """
        :root { color-scheme: light dark; --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa; --page: #fff;
          --pass: #116329; --pass-bg: #dafbe1; --pass-edge: #4ac26b; --warn: #7d4e00; --warn-bg: #fff8c5; --warn-edge: #d4a72c;
          --fail: #a40e26; --fail-bg: #ffebe9; --fail-edge: #ff8182;
          --bar: #3b6fb6; --bar-target: #0b2f66; --poster: #e8912d; --unknown: #9fb7d9; --window: #f4e7b6; --window-ink: #6b5200;
          --grid: #e6e9ed; --axis: #8c959f; --hole: #f3f4f6; --accent: #0550ae;
          --ref-bandwidth: #a40e26; --ref-average: #6639ba; --ref-budget: #116329; }
        @media (prefers-color-scheme: dark) {
          :root { --ink: #e6edf3; --muted: #9da7b3; --line: #3d444d; --panel: #161b22; --page: #0d1117;
            --pass: #7ee2a8; --pass-bg: #0f2d1c; --pass-edge: #2ea043; --warn: #f2cc60; --warn-bg: #2e2410; --warn-edge: #bb8009;
            --fail: #ffa198; --fail-bg: #3a1418; --fail-edge: #f85149;
            --bar: #5b8fd6; --bar-target: #a5c8ff; --poster: #f0a04b; --unknown: #46607f; --window: #3a3218; --window-ink: #e3c26b;
            --grid: #262c34; --axis: #6e7681; --hole: #1c2128; --accent: #6cb6ff;
            --ref-bandwidth: #ff7b72; --ref-average: #c7a4ff; --ref-budget: #56d364; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
          color: var(--ink); background: var(--page); }
        .page-head, main, footer { max-width: 1160px; margin: 0 auto; padding: 0 24px; }
        .page-head { padding-top: 20px; padding-bottom: 8px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 22px; margin: 0; letter-spacing: -0.01em; }
        .meta { color: var(--muted); margin: 2px 0 8px; font-size: 13px; }
        .overview { list-style: none; padding: 0; margin: 8px 0; }
        .overview li { margin: 4px 0; overflow-wrap: anywhere; }
        .overview .verdict { display: inline-block; min-width: 9.5em; margin-right: 6px; }
        .overview-counts { display: inline-flex; flex-wrap: wrap; align-items: baseline; gap: 0 10px; margin-left: 10px; font-size: 13px;
          color: var(--muted); }
        .overview-counts .count.error { color: var(--fail); }
        .overview-counts .count.warning { color: var(--warn); }
        .fix-summary { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; margin: 14px 0 4px; }
        .fix-summary section { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: 4px 12px 8px; }
        .fix-summary .must-fix { border-left-color: var(--fail-edge); }
        .fix-summary .should-fix { border-left-color: var(--warn-edge); }
        .fix-summary h3 { margin: 6px 0; }
        .fix-summary .must-fix h3 { color: var(--fail); }
        .fix-summary .should-fix h3 { color: var(--warn); }
        .fix-summary ul { margin: 0; padding: 0; list-style: none; }
        .fix-summary li { margin: 4px 0; overflow-wrap: anywhere; font-size: 14px; }
        .fix-summary .rule-link { font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace; font-weight: 600; font-size: 13px; }
        .fix-summary .times { color: var(--muted); font-size: 13px; }
        .fix-summary .place { display: block; }
        .stream { padding: 18px 0 26px; border-bottom: 1px solid var(--line); }
        .stream-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; }
        h2 { font-size: 19px; margin: 0; font-family: ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace;
          font-weight: 600; overflow-wrap: anywhere; }
        h3 { font-size: 15px; margin: 22px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; }
        .verdict { margin: 0; padding: 2px 10px; border-radius: 999px; font-size: 14px; border: 1px solid; }
        .verdict.pass { color: var(--pass); background: var(--pass-bg); border-color: var(--pass-edge); }
        .verdict.warn { color: var(--warn); background: var(--warn-bg); border-color: var(--warn-edge); }
        .verdict.fail { color: var(--fail); background: var(--fail-bg); border-color: var(--fail-edge); }
        .input-error { color: var(--fail); background: var(--fail-bg); padding: 8px 12px; border-radius: 6px; overflow-wrap: anywhere; }
        .table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        th, td { padding: 6px 7px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { background: var(--panel); font-weight: 600; vertical-align: bottom; }
        tbody tr:last-child th, tbody tr:last-child td { border-bottom: 0; }
        tbody th { font-weight: 600; overflow-wrap: break-word; min-width: 9em; }
        tbody th .place { display: block; font-weight: 400; }
        .codecs .found { display: block; color: var(--fail); }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        td.num { white-space: nowrap; }
        .partial { color: var(--fail); }
        .codecs { font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; min-width: 8em;
          overflow-wrap: anywhere; }
        .place { color: var(--muted); font-size: 12px; font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace;
          overflow-wrap: anywhere; }
        a { color: var(--accent); }
        .chart-figure { margin: 0 0 18px; padding: 12px 14px 8px; border: 1px solid var(--line); border-radius: 6px; }
        figcaption { font-weight: 600; overflow-wrap: anywhere; }
        .variant-uri { font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace; }
        .chart-scroll { overflow-x: auto; }
        svg.chart { display: block; width: 100%; min-width: 620px; height: auto; margin-top: 6px; font-size: 11px;
          font-family: system-ui, "DejaVu Sans", sans-serif; }
        @media (max-width: 700px) { svg.chart { font-size: 13px; } .page-head, main, footer { padding: 0 12px; } }
        svg .grid line { stroke: var(--grid); stroke-width: 1; }
        svg .axis { stroke: var(--axis); stroke-width: 1; }
        svg text { fill: var(--muted); }
        svg .tick-x { text-anchor: middle; }
        svg .tick-y, svg .end { text-anchor: end; }
        svg .window { fill: var(--window); opacity: 0.75; }
        svg .window-label { fill: var(--window-ink); font-size: 10px; }
        svg .peak-line { stroke: var(--window-ink); stroke-width: 2; }
        svg .bar { fill: var(--bar); }
        svg .bar.unknown { fill: var(--unknown); }
        svg .bar:target { fill: var(--bar-target); stroke: var(--fail-edge); stroke-width: 2; }
        svg .poster-share { fill: var(--poster); }
        svg .hole-ground { fill: var(--hole); }
        svg .hole-stroke { stroke: var(--axis); stroke-width: 2; }
        svg .references line { stroke-width: 1.5; fill: none; }
        svg line.ref-bandwidth { stroke: var(--ref-bandwidth); stroke-dasharray: 6 4; }
        svg line.ref-average { stroke: var(--ref-average); stroke-dasharray: 2 3; }
        svg line.ref-budget { stroke: var(--ref-budget); stroke-width: 2; }
        svg text.ref-bandwidth { fill: var(--ref-bandwidth); }
        svg text.ref-average { fill: var(--ref-average); }
        svg text.ref-budget { fill: var(--ref-budget); font-weight: 600; }
        .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 2px 18px; padding: 0; margin: 6px 0 4px;
          font-size: 12px; color: var(--muted); }
        .swatch { display: inline-block; width: 14px; height: 10px; margin-right: 6px; vertical-align: baseline; }
        .sw-bar { background: var(--bar); }
        .sw-poster { background: var(--poster); }
        .sw-unknown { background: var(--unknown); }
        .sw-hole { background: repeating-linear-gradient(45deg, var(--axis) 0 2px, var(--hole) 2px 5px); }
        .sw-window { background: var(--window); border-top: 2px solid var(--window-ink); }
        .sw-ref-bandwidth { height: 0; border-top: 2px dashed var(--ref-bandwidth); }
        .sw-ref-average { height: 0; border-top: 2px dotted var(--ref-average); }
        .sw-ref-budget { height: 0; border-top: 2px solid var(--ref-budget); }
        .note, .no-chart, .no-image, .no-findings { color: var(--muted); font-size: 13px; margin: 4px 0; overflow-wrap: anywhere; }
        .poster { display: flex; flex-wrap: wrap; gap: 12px 20px; align-items: flex-start; margin: 0 0 16px; padding: 12px 14px;
          border: 1px solid var(--line); border-radius: 6px; }
        .poster img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); }
        .poster dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 14px; margin: 8px 0 0; font-weight: 400; font-size: 13px; }
        .poster dt { color: var(--muted); }
        .poster dd { margin: 0; font-variant-numeric: tabular-nums; }
        .findings { list-style: none; padding: 0; margin: 0; border: 1px solid var(--line); border-radius: 6px; }
        .finding { padding: 8px 12px; border-bottom: 1px solid var(--line); border-left: 4px solid var(--line); }
        .finding:last-child { border-bottom: 0; }
        .finding:target { background: var(--warn-bg); }
        .finding p { margin: 0; overflow-wrap: anywhere; }
        .finding-head { font-size: 13px; }
        .finding .severity { display: inline-block; min-width: 4.8em; font-weight: 600; text-transform: uppercase; font-size: 11px;
          letter-spacing: 0.04em; }
        .finding.error { border-left-color: var(--fail-edge); }
        .finding.error .severity { color: var(--fail); }
        .finding.warning { border-left-color: var(--warn-edge); }
        .finding.warning .severity { color: var(--warn); }
        .finding.note { border-left-color: var(--axis); }
        .finding.note .severity { color: var(--muted); }
        .finding.suppressed { opacity: 0.7; }
        .rule { font-size: 12px; background: var(--panel); padding: 0 5px; border-radius: 4px; }
        .fix { font-size: 13px; margin: 2px 0 0; } .proposed-line { background: var(--panel); padding: 0 5px; border-radius: 4px; overflow-wrap: anywhere; }
        .to-chart { font-size: 12px; }
        footer { color: var(--muted); font-size: 12px; padding-top: 14px; padding-bottom: 28px; }
        @media print { .chart-figure, .poster, .findings li { break-inside: avoid; } }
        """
}
