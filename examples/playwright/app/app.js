// The app: asks the API (the mock) for the cart and shows it.
const cart = document.getElementById('cart');
async function load() {
  const r = await fetch('/api/cart');
  if (!r.ok) {
    cart.textContent = `error ${r.status}`;
    return;
  }
  const { items } = await r.json();
  const count = items.length === 1 ? '1 item' : `${items.length} items`;
  cart.textContent = items.length === 0 ? 'empty' : `${count}: ${items.join(', ')}`;
}
document.getElementById('reload').addEventListener('click', () => void load());
void load();
