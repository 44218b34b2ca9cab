// The replay of an fgn game. Every position, its board and its words were
// computed by fgn and are embedded as data below; this script holds no
// rules of any game: it only shows the frame asked for.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("fgn-data").textContent);
  var byId = function (id) { return document.getElementById(id); };
  var state = { perspective: 0, frame: 0 };

  function current() { return data.perspectives[state.perspective]; }
  function frames() { return current().frames; }
  function text(tag, content, className) {
    var element = document.createElement(tag);
    element.textContent = content;
    if (className) { element.className = className; }
    return element;
  }

  document.title = data.title + " (fgn replay)";
  byId("title").textContent = data.title;
  byId("subtitle").textContent = data.subtitle;

  // The perspective switch, when the page holds more than one viewer.
  if (data.perspectives.length > 1) {
    var choices = byId("perspective-choices");
    data.perspectives.forEach(function (p, i) {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "radio";
      input.name = "perspective";
      input.value = p.name;
      input.id = "perspective-" + p.name;
      input.checked = i === 0;
      input.addEventListener("change", function () { if (input.checked) { choose(i); } });
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + p.label));
      choices.appendChild(label);
    });
    byId("perspectives").hidden = false;
  } else {
    var only = byId("perspective-only");
    only.textContent = "Seen as: " + data.perspectives[0].label;
    only.hidden = false;
  }

  // The log as the current viewer saw it: one line per frame, each a
  // button that shows the position after it; then the event that broke a
  // rule, when the viewer may see it.
  function buildLog() {
    var log = byId("log");
    log.textContent = "";
    frames().forEach(function (f, i) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.dataset.frame = String(i);
      if (f.event === null) {
        button.textContent = "start";
        item.className = "start";
      } else {
        button.appendChild(text("span", (f.event + 1) + ". ", "lineno"));
        button.appendChild(document.createTextNode(f.seen));
        if (f.line !== null) { button.appendChild(text("span", "  (line " + f.line + ")", "lineno")); }
        if (f.seen.charAt(0) === "(") { item.className = "unseen"; }
      }
      button.addEventListener("click", function () { show(i); });
      item.appendChild(button);
      log.appendChild(item);
    });
    var stop = current().stop;
    if (stop && stop.text !== null) {
      var fault = text("li", "", "fault");
      fault.appendChild(text("span", "⚠ " + (stop.event + 1) + ". ", "lineno"));
      fault.appendChild(document.createTextNode(stop.text));
      fault.appendChild(text("span", "  (line " + stop.line + ") breaks a rule", "lineno"));
      log.appendChild(fault);
    }
    var last = frames().length - 1;
    byId("event-slider").max = String(last);
    byId("event-number").max = String(last);
    byId("event-count").textContent = "of " + last;
    byId("stop").hidden = !stop;
    if (stop) {
      byId("stop-title").textContent = stop.event === null
        ? "The replay ends here: the log breaks a rule"
        : "The replay ends after event " + last + ": the next event breaks a rule";
      byId("stop-message").textContent = stop.message;
    }
  }

  // The board as text for screen readers: the SVG's own description, one
  // item per occupied square (then the fog and unknown squares).
  function boardText(svg) {
    var list = byId("board-text");
    list.textContent = "";
    var desc = svg ? svg.querySelector("desc") : null;
    (desc ? desc.textContent.split("; ") : []).forEach(function (part) {
      list.appendChild(text("li", part));
    });
  }

  // Scrolls the log, and nothing else, so that `item` is in view
  // (scrollIntoView would scroll the page too, and move where Tab starts).
  function scrollLogTo(item) {
    var log = byId("log");
    var top = item.offsetTop;
    var bottom = top + item.offsetHeight;
    if (top < log.scrollTop) {
      log.scrollTop = top;
    } else if (bottom > log.scrollTop + log.clientHeight) {
      log.scrollTop = bottom - log.clientHeight;
    }
  }

  function show(i) {
    var all = frames();
    var k = Math.max(0, Math.min(all.length - 1, i));
    var f = all[k];
    state.frame = k;
    var holder = byId("board");
    // The board's SVG, from its lines (stored once for all boards).
    holder.innerHTML = data.boards[f.board].map(function (n) { return data.lines[n]; }).join("\n");
    var svg = holder.querySelector("svg");
    boardText(svg);
    byId("caption").textContent = f.caption;
    var facts = byId("facts");
    facts.textContent = "";
    f.facts.forEach(function (line, n) {
      var item = text("li", line);
      if (n === f.facts.length - 1) {
        item.className = "hash";
        item.id = "hash";
        item.dataset.hashName = f.hash_name;
        item.dataset.hash = f.hash;
      }
      facts.appendChild(item);
    });
    byId("event-slider").value = String(k);
    byId("event-slider").setAttribute("aria-valuetext", f.caption);
    byId("event-number").value = String(k);
    var items = byId("log").querySelectorAll("li");
    for (var n = 0; n < items.length; n++) {
      var on = n === k;
      items[n].classList.toggle("current", on);
      var button = items[n].querySelector("button");
      if (button) {
        if (on) { button.setAttribute("aria-current", "step"); } else { button.removeAttribute("aria-current"); }
      }
      if (on) { scrollLogTo(items[n]); }
    }
    var result = f.facts.filter(function (l) { return l.indexOf("result: ") === 0; })[0] || "";
    byId("live").textContent = f.caption + ". " + result;
    document.body.dataset.frame = String(k);
  }

  function choose(i) {
    var at = state.frame;
    state.perspective = i;
    document.body.dataset.perspective = current().name;
    buildLog();
    show(at);
  }

  byId("first").addEventListener("click", function () { show(0); });
  byId("back").addEventListener("click", function () { show(state.frame - 1); });
  byId("forward").addEventListener("click", function () { show(state.frame + 1); });
  byId("last").addEventListener("click", function () { show(frames().length - 1); });
  byId("event-slider").addEventListener("input", function (e) { show(Number(e.target.value)); });
  byId("event-number").addEventListener("change", function (e) {
    var n = parseInt(e.target.value, 10);
    show(isNaN(n) ? state.frame : n);
  });

  // The keys step through the game wherever the focus is, except in the
  // fields that use them themselves (the event number and slider, the
  // perspective switch).
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) { return; }
    var moves = {
      ArrowRight: function () { return state.frame + 1; },
      ArrowLeft: function () { return state.frame - 1; },
      Home: function () { return 0; },
      End: function () { return frames().length - 1; }
    };
    if (moves[e.key]) {
      e.preventDefault();
      show(moves[e.key]());
    }
  });

  choose(0);
})();
