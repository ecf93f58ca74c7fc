// Four tests, each shaping the cart its own way, run at once by four workers against one mock. Each sets its
// override, waits until all four have (so they overlap for certain), then loads the page and counts its own
// requests. With sessions every test sees only its own override and requests; without, they trample each other.
import { allArrived, expect, test } from './fixtures.js';

const cart = (respond) => ({ when: { request: { url_path: '/api/cart' } }, respond });
/** overrides the four tests add in all (the flaky one adds two) */
const ALL_OVERRIDES = 5;

test('a failing API shows an error', async ({ page, mock }) => {
  await mock.use(cart({ status: 500 }));
  await allArrived(ALL_OVERRIDES);
  await page.goto('/');
  await expect(page.locator('#cart')).toHaveText('error 500');
  expect((await mock.requests('/api/cart')).length).toBe(1);
});

test('three items are listed', async ({ page, mock }) => {
  await mock.use(cart({ json: '{"items":["tea","milk","jam"]}' }));
  await allArrived(ALL_OVERRIDES);
  await page.goto('/');
  await expect(page.locator('#cart')).toHaveText('3 items: tea, milk, jam');
  expect((await mock.requests('/api/cart')).length).toBe(1);
});

test('a reload asks again', async ({ page, mock }) => {
  await mock.use(cart({ json: '{"items":["bread"]}' }));
  await allArrived(ALL_OVERRIDES);
  await page.goto('/');
  await expect(page.locator('#cart')).toHaveText('1 item: bread');
  await page.click('#reload');
  await expect.poll(async () => (await mock.requests('/api/cart')).length).toBe(2);
});

test('a flaky API fails once, then answers', async ({ page, mock }) => {
  await mock.use(cart({ json: '{"items":[]}' }));
  await mock.use(cart({ status: 503 }), { once: true });
  await allArrived(ALL_OVERRIDES);
  await page.goto('/');
  await expect(page.locator('#cart')).toHaveText('error 503');
  await page.click('#reload');
  await expect(page.locator('#cart')).toHaveText('empty');
  const statuses = (await mock.requests('/api/cart')).map((e) => e.response.status);
  expect(statuses).toEqual([503, 200]);
});
