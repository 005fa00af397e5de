// Screenshots on the trade page (the shared image gallery; pasting an image anywhere on the page adds it).
import { ImageGallery } from "../../components/image-gallery.tsx";

export function TradeImages({ tradeId, zone }: { tradeId: string; zone?: string | undefined }) {
  return <ImageGallery base={`/api/trades/${tradeId}`} zone={zone} paste />;
}
