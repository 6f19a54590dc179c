// Lighthouse on each page of the console opened cold in a tab that holds a session.
//
// A page behind sign-in needs the tab that signed in: the key lives in that tab's
// sessionStorage. Lighthouse's user-flow API measures navigations of a page we drive, so
// this script signs in once, then lets Lighthouse navigate the same tab to each page.
// Lighthouse clears the HTTP cache before each navigation (a cold load) and leaves
// sessionStorage alone, so every page opens cold and signed in.
//
// Usage: node flow.mjs <config.json>, where the file holds
//   {"chromium", "base", "key", "preset": "mobile"|"desktop", "paths": [...]}
// Prints one JSON line per page: {path, lcp_ms, lcp_element, tbt_ms, fcp_ms, error?}.

import { readFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { startFlow, desktopConfig } from 'lighthouse';

const { chromium, base, key, preset, paths } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

// The element of the page's last largest-contentful-paint entry, as the browser reports it
// to the page: Lighthouse 12.2's own LCP-element audit fails on this Chromium's traces
// ("RootCauses … frame_sequence"), while its LCP time, read from the trace, stands.
async function largestPaintedElement(page) {
  return page.evaluate(() => new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const element = list.getEntries().at(-1)?.element;
      if (!element) return resolve(null);
      const text = (element.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const classes = [...element.classList].map((c) => `.${c}`).join('');
      resolve(`${element.localName}${classes}${text ? ` "${text}"` : ''}`);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => resolve(null), 2000);
  }));
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: 'new',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
// A tab signed in with the key: it lives in the tab's sessionStorage.
async function signedInPage() {
  const page = await browser.newPage();
  await page.goto(`${base}/sign-in`);
  await page.waitForSelector('#api-key:not([disabled])');
  await page.type('#api-key', key);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=identity]');
  return page;
}

// Lighthouse can reject a promise nobody awaits once the tab it watches has gone ("Session
// closed" while it waits for the network to be quiet): that page is reported as not
// measured, and the flow goes on with the next in a new signed-in tab, instead of node
// ending with every page after it unmeasured.
let stray = null;
process.on('unhandledRejection', (error) => {
  stray = error;
});

try {
  let page = await signedInPage();

  const settings = {
    onlyCategories: ['performance'],
    // Throttling applied to the browser, as the felt bench does, rather than simulated
    // from an unthrottled load: the console's own early reads and split loading are
    // what is measured, and a simulation would model them from loopback timings.
    throttlingMethod: 'devtools',
  };
  // Lighthouse's desktop preset leaves devtools throttling unset (it simulates 40 ms RTT
  // and 10 Mbit/s); applied here as Lighthouse converts its mobile preset for devtools:
  // latency ×3.75 the RTT, throughput ×0.9.
  const desktopThrottling = {
    ...desktopConfig.settings.throttling,
    requestLatencyMs: 40 * 3.75,
    downloadThroughputKbps: 10 * 1024 * 0.9,
    uploadThroughputKbps: 10 * 1024 * 0.9,
  };
  const config = preset === 'desktop'
    ? {
      ...desktopConfig,
      settings: { ...desktopConfig.settings, ...settings, throttling: desktopThrottling },
    }
    : { extends: 'lighthouse:default', settings };

  for (const path of paths) {
    try {
      if (page.isClosed()) page = await signedInPage();
      await page.goto('about:blank');
      // The page before has left the network (it preloads other pages' code after its paint).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      stray = null;
      const flow = await startFlow(page, { config, name: path });
      await flow.navigate(`${base}${path}`, { name: path });
      if (stray) throw stray;
      const lhr = (await flow.createFlowResult()).steps[0].lhr;
      const audit = (id) => lhr.audits[id];
      const element = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node;
      console.log(JSON.stringify({
        path,
        lcp_ms: audit('largest-contentful-paint')?.numericValue ?? null,
        lcp_element: element ? (element.nodeLabel || element.snippet) : await largestPaintedElement(page),
        tbt_ms: audit('total-blocking-time')?.numericValue ?? null,
        fcp_ms: audit('first-contentful-paint')?.numericValue ?? null,
        error: lhr.runtimeError?.message ?? null,
      }));
    } catch (error) {
      console.log(JSON.stringify({ path, error: String(error?.message ?? error) }));
    }
  }
} finally {
  await browser.close();
}
