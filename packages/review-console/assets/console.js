// The review console's only script: progressive enhancement, every page works without it.
// A submitted form's button is disabled at once, so a second click does not even send (the form's
// Idempotency-Key would make it act once anyway).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.target === '_blank') return;
  for (const button of form.querySelectorAll('button[type="submit"]')) {
    button.setAttribute('aria-disabled', 'true');
    queueMicrotask(() => {
      button.disabled = true;
    });
  }
});
