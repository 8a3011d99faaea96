import { afterEach, describe, expect, it, vi } from "vitest";
import { registerServiceWorker, SW_INSECURE_MESSAGE, swAllowed } from "./service-worker";

describe("service worker registration", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is allowed over HTTPS and on localhost only", () => {
    expect(swAllowed({ protocol: "https:", hostname: "desk.example" })).toBe(true);
    expect(swAllowed({ protocol: "http:", hostname: "localhost" })).toBe(true);
    expect(swAllowed({ protocol: "http:", hostname: "127.0.0.1" })).toBe(true);
    expect(swAllowed({ protocol: "http:", hostname: "[::1]" })).toBe(true);
    expect(swAllowed({ protocol: "http:", hostname: "desk.example" })).toBe(false);
    expect(swAllowed({ protocol: "http:", hostname: "192.168.1.5" })).toBe(false);
  });

  it("logs the exact message and does not register over plain HTTP elsewhere", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const register = vi.fn();
    const container = { register, controller: null } as unknown as ServiceWorkerContainer;
    const reg = await registerServiceWorker({
      location: { protocol: "http:", hostname: "desk.example" },
      container,
      onEvent: () => {},
    });
    expect(reg).toBeNull();
    expect(register).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith("Service workers can only be used over HTTPS, or on localhost for development");
    expect(SW_INSECURE_MESSAGE).toBe("Service workers can only be used over HTTPS, or on localhost for development");
  });

  it("registers from the site root on localhost", async () => {
    const register = vi.fn(() => Promise.resolve({ addEventListener: () => {} }));
    const container = { register, controller: null } as unknown as ServiceWorkerContainer;
    await registerServiceWorker({
      location: { protocol: "http:", hostname: "localhost" },
      container,
      onEvent: () => {},
    });
    expect(register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
  });
});
