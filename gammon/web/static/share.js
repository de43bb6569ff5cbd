// "Copy ID" and "Copy image" on the game, editor and analysis pages: the GNU Backgammon ID (PositionID:MatchID) of the
// position shown, which `gammon eval` and GNU Backgammon read, and its picture from /api/diagram.
// The page calls showShareId whenever the position shown changes ("" hides the buttons).
import { $, t } from "./common.js";

const COPIED_MS = 1500;  // how long "Copied" stays in the status line
let shownId = "";

export function showShareId(id) {
  const box = $("#share");
  if (!box) return;
  if (id !== shownId) $("#share-id").hidden = true;  // a hand-copy field of an older position goes
  shownId = id || "";
  box.hidden = !shownId;
}

// "Copied" in the status line, then back to what it said, unless the page has changed it since. A
// second copy within COPIED_MS restarts the wait (the first one's timer would cut it short) and
// still goes back to what the line said before the first.
let said = null;  // { text, before, timer } while a message shows
function say(text) {
  const status = $("#status");
  if (said) clearTimeout(said.timer);
  if (!said || status.textContent !== said.text) said = { before: status.textContent };
  const now = said;
  now.text = text;
  status.textContent = text;
  now.timer = setTimeout(() => {
    if (status.textContent === text) status.textContent = now.before;
    if (said === now) said = null;
  }, COPIED_MS);
}

// Without the clipboard (an http page off localhost is no secure context) the ID waits selected in
// a text field for the user to copy by hand.
function showForHand(id) {
  const field = $("#share-id");
  field.value = id;
  field.hidden = false;
  field.focus();
  field.select();
  say(t("Copy the ID from the field below"));
}

async function copyId() {
  const id = shownId;
  if (!id) return;
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(id);
    say(t("Copied"));
  } catch (e) {
    showForHand(id);
  }
}

function diagramUrl(id) { return `/api/diagram?${new URLSearchParams({ id, format: "png" })}`; }

// Where the clipboard takes no images, the PNG is downloaded instead.
function download(url) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "position.png";
  document.body.append(a);
  a.click();
  a.remove();
  say(t("Downloading the image"));
}

async function copyImage() {
  if (!shownId) return;
  const url = diagramUrl(shownId);
  if (!navigator.clipboard?.write || typeof ClipboardItem === "undefined") { download(url); return; }
  // The item is made at once, its PNG still coming: Safari allows a clipboard write only within the
  // click that asked for it.
  const png = fetch(url).then(r => {
    if (!r.ok) throw new Error(`the diagram answered ${r.status}`);
    return r.blob();
  });
  try {
    await navigator.clipboard.write([new ClipboardItem({ "image/png": png })]);
    say(t("Copied"));
  } catch (e) {
    download(url);
  }
}

$("#copy-id")?.addEventListener("click", copyId);
$("#copy-image")?.addEventListener("click", copyImage);
