/* global document, fetch, window */
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
