/**
 * The dashboard's stylesheet, served as /assets/dashboard.css (a file of this origin: the
 * Content-Security-Policy allows no inline style). Terminal colours are the classes `fg-N` /
 * `bg-N` for the 16 basic colours; others are set through the CSSOM by the page.
 */
const basic = [
  '#000000',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#ffffff',
];

export const dashboardCss = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fafafa; --muted: #5f6368; --line: #d0d4d9;
  --accent: #0b57d0; --bad: #b3261e; --good: #146c2e; font-family: system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --bg: #15171a; --muted: #a8adb4;
  --line: #3c4043; --accent: #8ab4f8; --bad: #f28b82; --good: #81c995; } }
body { margin: 0; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header#top { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: center;
  padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
header#top p { margin: 0; }
.brand a { font-weight: 700; text-decoration: none; }
#surfaces { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
#surfaces .state-on { color: var(--good); }
#surfaces .state-off, #surfaces .state-degraded, #surfaces .state-failed { color: var(--muted); }
main { padding: 1rem 1.2rem; max-width: 90rem; }
main.login { max-width: 32rem; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
td.actions { white-space: nowrap; }
button { font: inherit; padding: .25rem .7rem; margin: 0 .2rem .2rem 0; border: 1px solid var(--line);
  border-radius: .3rem; background: transparent; color: var(--fg); cursor: pointer; }
button:hover { border-color: var(--accent); }
button:focus-visible, a:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible,
  summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button.danger { color: var(--bad); }
.stack { display: grid; gap: .4rem; max-width: 36rem; }
.stack label { font-weight: 600; }
input, textarea, select { font: inherit; padding: .3rem; color: var(--fg); background: var(--bg);
  border: 1px solid var(--line); border-radius: .3rem; }
textarea { min-height: 4rem; }
.refusal { color: var(--bad); }
.outcome { min-height: 1.4rem; }
.muted { color: var(--muted); }
dialog { color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: .4rem; }
.terminal { font-family: ui-monospace, monospace; font-size: .85rem; line-height: 1.25;
  background: #111; color: #e5e5e5; padding: .6rem; overflow: auto; max-height: 32rem;
  white-space: pre; border-radius: .3rem; }
.terminal .b { font-weight: 700; } .terminal .d { opacity: .7; } .terminal .i { font-style: italic; }
.terminal .u { text-decoration: underline; }
${basic.map((colour, index) => `.terminal .fg-${index} { color: ${colour}; }`).join('\n')}
${basic.map((colour, index) => `.terminal .bg-${index} { background: ${colour}; }`).join('\n')}
#events { font-family: ui-monospace, monospace; font-size: .85rem; max-height: 20rem; overflow: auto;
  padding-left: 1.2rem; }
.permission { border: 1px solid var(--line); border-radius: .4rem; padding: .6rem; margin: .5rem 0; }
.permission pre { white-space: pre-wrap; margin: .3rem 0; }
.two { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.5rem; }
@media (max-width: 60rem) { .two { grid-template-columns: 1fr; } }
`;
