-- A preview's fills staged in parts (lib/imports/imports.ts, IMPORT_PART_FILLS a part): a 10 MB file's 13 MB of
-- staged JSON no longer travels as one parameter, which the Node driver copied twice into buffers of its own
-- (issue 40). Parts live minutes and are read once: stored uncompressed, as csv_imports.staged (0013).
CREATE TABLE "csv_import_parts" (
	"import_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"fills" jsonb NOT NULL,
	CONSTRAINT "csv_import_parts_import_id_part_pk" PRIMARY KEY("import_id","part")
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "staged_parts" integer;--> statement-breakpoint
ALTER TABLE "csv_import_parts" ADD CONSTRAINT "csv_import_parts_import_id_csv_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."csv_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csv_import_parts" ALTER COLUMN "fills" SET STORAGE EXTERNAL;