// Eleventy's side of `npm run bench -- --peers`: the v1 listings of the generated catalog, the way an
// Eleventy user would write them: a global data file reading the manifests (_data/listings.js, the
// catalog's content/ given by OTAPRESS_CATALOG) and one JavaScript template paginated over device x list.
export default function (eleventyConfig) {
  eleventyConfig.setQuietMode(true);
}

export const config = {
  dir: { input: '.', data: '_data' },
};
