/* global clearTimeout, document, fetch, setTimeout, window */
// Enhances the feedback page when JavaScript runs: votes and "load more" without a reload. Without
// it, the same forms and links work as plain posts and pages. Text is only ever set as textContent.
'use strict';

(function () {
  const json = { Accept: 'application/json', 'Content-Type': 'application/json' };

  function setVoted(form, voted, count) {
    const button = form.querySelector('button');
    button.setAttribute('aria-pressed', voted ? 'true' : 'false');
    form.querySelector('.count').textContent = String(count);
    // The page's words, in its language, are on the list (page.eta): the script has none of its own.
    const words = document.getElementById('items').dataset;
    form.querySelector('.visually-hidden').textContent = voted ? words.votesVoted : words.votes;
    form.querySelector('input[name="action"]').value = voted ? 'remove' : 'add';
  }

  async function vote(form) {
    const id = form.dataset.suggestion;
    const code = window.location.pathname.split('/')[2];
    const add = form.querySelector('input[name="action"]').value === 'add';
    const url = '/public/suggestions/' + id + '/vote' + (add ? '' : '?code=' + encodeURIComponent(code));
    const res = await fetch(url, {
      method: add ? 'POST' : 'DELETE',
      headers: json,
      body: add ? JSON.stringify({ code: code }) : undefined,
      credentials: 'same-origin',
    });
    if (!res.ok) return form.submit();
    const body = await res.json();
    for (const other of document.querySelectorAll('form.vote[data-suggestion="' + id + '"]')) {
      setVoted(other, body.voted, body.upvote_count);
    }
    // After a vote, the same offer as the page makes without JavaScript: follow it by email (double opt-in).
    const follow = document.querySelector('#s-' + id + ' details.follow');
    if (body.voted && follow) follow.open = true;
  }

  function byline(name) {
    return document.getElementById('items').dataset.by.split('{name}').join(name);
  }

  function itemFrom(template, item, code, sort) {
    const node = template.cloneNode(true);
    node.id = 's-' + item.id;
    const form = node.querySelector('form.vote');
    form.action = '/f/' + code + '/votes/' + item.id;
    form.dataset.suggestion = item.id;
    form.querySelector('input[name="sort"]').value = sort;
    setVoted(form, item.voted, item.upvote_count);
    node.querySelector('.content').textContent = item.content;
    const status = node.querySelector('.status');
    status.textContent = item.status_label;
    status.className = 'status status-' + item.status;
    const author = node.querySelector('.author');
    if (item.customer_name) {
      if (author) author.textContent = byline(item.customer_name);
      else {
        const span = document.createElement('span');
        span.className = 'author';
        span.textContent = byline(item.customer_name);
        node.querySelector('.meta').append(span);
      }
    } else if (author) author.remove();
    return node;
  }

  async function loadMore(link) {
    const { code, sort, offset } = link.dataset;
    const query = '?code=' + encodeURIComponent(code) + '&sort=' + sort + '&offset=' + offset;
    const res = await fetch('/public/suggestions' + query, { headers: { Accept: 'application/json' } });
    if (!res.ok) return (window.location.href = link.href);
    const page = await res.json();
    const list = document.getElementById('items');
    const template = list.querySelector('.item');
    for (const item of page.data) list.append(itemFrom(template, item, code, sort));
    if (page.next_offset === null) link.parentElement.remove();
    else link.dataset.offset = String(page.next_offset);
  }

  // Similar suggestions while typing: what the page already shows like the feedback being written,
  // each with its vote button, so a visitor can vote instead of posting a duplicate.
  const similar = document.getElementById('similar');
  const similarTemplate = document.getElementById('similar-template');
  const content = document.getElementById('content');
  let similarTimer = null;
  let similarAsked = '';

  function showSimilar(items) {
    similar.textContent = '';
    if (items.length === 0) return;
    const shown = similarTemplate.content.cloneNode(true);
    const list = shown.querySelector('.items');
    const template = list.querySelector('.item');
    template.remove();
    const code = similar.dataset.code;
    for (const item of items) {
      const node = template.cloneNode(true);
      node.id = 'similar-' + item.id;
      const form = node.querySelector('form.vote');
      form.action = '/f/' + code + '/votes/' + item.id;
      form.dataset.suggestion = item.id;
      node.querySelector('.count').textContent = String(item.upvote_count);
      node.querySelector('.content').textContent = item.content;
      list.append(node);
    }
    similar.append(shown);
  }

  async function askSimilar() {
    const text = content.value.trim();
    if (text === similarAsked) return;
    similarAsked = text;
    if (text.length < 3) return showSimilar([]);
    const query = '?code=' + encodeURIComponent(similar.dataset.code) + '&q=' + encodeURIComponent(text.slice(0, 2000));
    const res = await fetch('/public/suggestions/similar' + query, { headers: { Accept: 'application/json' } });
    if (!res.ok || content.value.trim() !== text) return;
    showSimilar((await res.json()).data);
  }

  if (similar && similarTemplate && content) {
    content.addEventListener('input', function () {
      clearTimeout(similarTimer);
      similarTimer = setTimeout(function () {
        askSimilar().catch(function () {});
      }, 300);
    });
  }

  document.addEventListener('submit', function (event) {
    const form = event.target;
    if (!form.matches('form.vote')) return;
    event.preventDefault();
    vote(form).catch(function () {
      form.submit();
    });
  });

  document.addEventListener('click', function (event) {
    const link = event.target.closest('a.more');
    if (!link) return;
    event.preventDefault();
    loadMore(link).catch(function () {
      window.location.href = link.href;
    });
  });
})();
