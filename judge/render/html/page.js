// Copy buttons, and the two sources chosen side by side. Without the script every source shows.
for (const button of document.querySelectorAll("button.copy")) {
  button.addEventListener("click", () => {
    const text = button.dataset.copy;
    const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1500); };
    const fallback = () => {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
      done();
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  });
}
const sources = document.querySelector(".sources");
const picks = document.querySelectorAll("select.pick");
function pair() {
  const chosen = Array.from(picks, (p) => p.value);
  for (const article of document.querySelectorAll("article.source")) {
    const at = chosen.indexOf(article.dataset.k);
    article.classList.toggle("shown", at >= 0);
    article.style.order = at;
  }
}
if (sources && picks.length) {
  sources.classList.add("paired");
  picks.forEach((p) => p.addEventListener("change", pair));
  pair();
}
