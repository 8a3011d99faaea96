export { Callout, CardGrid, ContentPage, ContentSection, FactList, FaqList, type RelatedLink } from "./ContentPage";
export * as siteCss from "./site.css";
