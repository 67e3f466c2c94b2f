import { useEffect, useId, useSyncExternalStore } from "react";
import { toast } from "#app/lib/toast.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { PROFILE_IMAGE_KEY, PROFILE_IMAGE_SIZE } from "#app/routes/profile/constants.ts";
import { CameraIcon } from "#app/components/icons.tsx";

/**
 * docs/product.md#screens-profile: the profile photo, kept in this browser only (localStorage profileImage).
 * Image files only; the picture is scaled down to a small square first so it fits the quota.
 */
export function ProfilePhoto({ name }: { name: string }) {
  const inputId = useId();
  const image = useSyncExternalStore(subscribePhoto, readPhoto, () => null);

  // A file chosen before the page's scripts ran (they start after the first paint, ADR 0044, seconds
  // later on a slow phone) waits in the picker, which fired no change React saw: take it up now.
  useEffect(() => {
    const input = document.getElementById(inputId);
    if (input instanceof HTMLInputElement && input.files?.length) void take(input);
  }, [inputId]);

  async function take(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toast.error(messages.profileImageOnly, { autoClose: TOAST_MS.app });
      return;
    }
    try {
      const dataUrl = await scaledDataUrl(file);
      window.localStorage.setItem(PROFILE_IMAGE_KEY, dataUrl);
      window.dispatchEvent(new Event(PHOTO_CHANGED));
    } catch {
      toast.error(messages.profileImageOnly, { autoClose: TOAST_MS.app });
    }
  }

  return (
    <div className="profile-photo">
      {image ? (
        <img className="profile-photo__image" src={image} alt="Your profile photo" width={88} height={88} />
      ) : (
        <span className="profile-photo__initials" aria-hidden="true">
          {initials(name)}
        </span>
      )}
      <label htmlFor={inputId} className="profile-photo__change">
        <CameraIcon width={18} height={18} />
        <span className="visually-hidden">Change profile photo</span>
      </label>
      {/* Any file can be picked (some pickers ignore accept); non-images are refused with a message. */}
      <input
        id={inputId}
        type="file"
        accept="image/*"
        className="visually-hidden"
        onChange={(event) => void take(event.currentTarget)}
      />
    </div>
  );
}

const PHOTO_CHANGED = "profile-photo-changed";

/** Follows the stored photo: changed here, or in another tab (storage event). */
function subscribePhoto(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(PHOTO_CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(PHOTO_CHANGED, onChange);
  };
}

function readPhoto(): string | null {
  try {
    return window.localStorage.getItem(PROFILE_IMAGE_KEY);
  } catch {
    return null; // Storage blocked: the initials stay.
  }
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

/** Draws the image into a square of PROFILE_IMAGE_SIZE (cover) and returns it as a JPEG data URL. */
async function scaledDataUrl(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const size = PROFILE_IMAGE_SIZE;
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no canvas");
  const scale = Math.max(size / bitmap.width, size / bitmap.height);
  const w = bitmap.width * scale;
  const h = bitmap.height * scale;
  ctx.drawImage(bitmap, (size - w) / 2, (size - h) / 2, w, h);
  bitmap.close();
  return canvas.toDataURL("image/jpeg", 0.85);
}
