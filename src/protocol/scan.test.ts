import { describe, expect, it } from "vitest";
import { seededRandom } from "./random";
import { newScannedUpdate, scanBookUpdate, scanChecksum } from "./scan";

function scan(s: string) {
  const out = newScannedUpdate();
  return scanBookUpdate(s, out) ? out : null;
}

describe("book update scanner", () => {
  it("reads a trading update with the text position of every number", () => {
    const s = "[17082,[7254.5,0,-1]]";
    const r = scan(s);
    expect(r).not.toBeNull();
    expect(r?.chanId).toBe(17082);
    expect(r?.arity).toBe(3);
    expect(Array.from(r?.values.subarray(0, 3) ?? [])).toEqual([7254.5, 0, -1]);
    expect(s.slice(r?.starts[0], r?.ends[0])).toBe("7254.5");
    expect(s.slice(r?.starts[2], r?.ends[2])).toBe("-1");
    expect(r?.trailing).toBe(0);
  });

  it("reads funding entries and SEQ/MTS suffixes", () => {
    const f = scan("[348748,[0.00023157,2,1,66.35007188]]");
    expect(f?.arity).toBe(4);
    expect(f?.values[0]).toBe(0.00023157);
    const t = scan("[6959,[219.11,3,-18.10913638],45,1564617601214]");
    expect(t?.trailing).toBe(2);
    expect(Array.from(t?.trailers ?? [])).toEqual([45, 1564617601214]);
  });

  it("agrees with JSON.parse on every number it accepts", () => {
    const texts = [
      "0",
      "-0",
      "1",
      "-1",
      "7e-7",
      "1.7e-8",
      "6.6e-7",
      "0.0000011",
      "1e-8",
      "2970",
      "-4847.13",
      "30012.3",
      "12.34567891",
      "-0.00047262",
      "1E+2",
      "5.0",
      "123456789012345",
      "0.1",
      "0.2",
      "0.3",
      "9007199254740991",
      // Past 15 digits: exact below 2^53, declined from 2^53 on (never rounded differently).
      "1234567890123456",
      "0.1234567890123456",
      "9007199254740992",
      "9007199254740993",
      "12345678901234567890",
      "0.00000000000000000000001",
      "1.2345678901234e-10",
      "99999.99999999",
    ];
    for (const t of texts) {
      const r = scan(`[1,[${t},1,${t}]]`);
      if (r === null) continue; // the fast path may decline; it must never disagree
      expect(r.values[0], t).toBe(JSON.parse(t) as number);
      expect(Object.is(r.values[0], JSON.parse(t)) || r.values[0] === 0, t).toBe(true);
    }
  });

  it("agrees with JSON.parse on many random decimals", () => {
    const rand = seededRandom(99);
    for (let i = 0; i < 20000; i++) {
      const v = Number((rand() * 10 ** Math.floor(rand() * 12 - 6)).toPrecision(1 + Math.floor(rand() * 14)));
      const t = String(rand() < 0.5 ? -v : v);
      const r = scan(`[9,[${t},2,${t}]]`);
      if (r) expect(r.values[0], t).toBe(JSON.parse(t) as number);
    }
  });

  it("declines other shapes so the caller falls back to JSON.parse", () => {
    for (const s of [
      "[1,[[1,2,3]]]",
      '[1,"hb"]',
      '[1,"cs",123]',
      "[1,[1,2]]",
      "[1,[1,2,3,4,5]]",
      "[1, [1,2,3]]",
      "[1,[1,2,3]",
      "[1,[1,2,3]]x",
      "[0,[1,2,3]]",
      "[1,[1.,2,3]]",
      "[1,[1,2,3],4,5,6]",
      "[1,[1234567890123456789,2,3]]",
      "[1,[1e400,2,3]]",
      '{"event":"info"}',
      "",
    ]) {
      expect(scan(s), s).toBeNull();
    }
  });
});

describe("checksum frame scanner", () => {
  it("reads the checksum and the SEQ/MTS suffix, and declines everything else", () => {
    const out = newScannedUpdate();
    expect(scanChecksum('[17082,"cs",-1323103871]', out)).toBe(true);
    expect([out.chanId, out.values[0], out.trailing]).toEqual([17082, -1323103871, 0]);
    expect(scanChecksum('[5,"cs",12345,77,1564617601214]', out)).toBe(true);
    expect([out.values[0], out.trailing, out.trailers[0], out.trailers[1]]).toEqual([12345, 2, 77, 1564617601214]);
    for (const s of [
      '[5,"cs",1.5]',
      '[5,"cs","12"]',
      '[5,"hb"]',
      '[5,"cx",1]',
      '[0,"cs",1]',
      '[5, "cs",1]',
      '[5,"cs",1',
      '[5,"cs",1]x',
      "[5,[1,2,3]]",
    ]) {
      expect(scanChecksum(s, out), s).toBe(false);
    }
  });
});
