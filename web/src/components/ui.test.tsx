import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors.ts";
import { ErrorAlert } from "./ui.tsx";

describe("ErrorAlert", () => {
  it("says what went wrong in words, with the request id behind a Details disclosure", () => {
    render(<ErrorAlert error={new ApiError(409, "CONFLICT", "You already have an account with this name.", "req-42")} title="Could not save." />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("You already have an account with this name.");
    const details = alert.querySelector("details")!;
    expect(details.querySelector("summary")!.textContent).toBe("Details");
    expect(details.open).toBe(false);
    expect(details.textContent).toContain("req-42");
    // The message itself is not the id.
    expect(alert.querySelector("p")!.textContent).not.toContain("req-42");
  });
});
