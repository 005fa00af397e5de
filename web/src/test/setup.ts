import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// Two shared cores and a cold first render: the default 1 s wait for an element is too tight.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
