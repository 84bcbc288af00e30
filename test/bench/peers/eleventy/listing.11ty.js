// One JSON file per device and list: /api/v1/<device>/<list>/index.json, as a phone asks for it.
export const data = {
  pagination: { data: 'listings', size: 1, alias: 'listing' },
  permalink: ({ listing }) => `api/v1/${listing.device}/${listing.list}/index.json`,
  eleventyExcludeFromCollections: true,
};

export function render({ listing }) {
  return JSON.stringify({ id: null, response: listing.records, error: null });
}
