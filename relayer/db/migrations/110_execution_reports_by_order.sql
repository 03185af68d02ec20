-- confirm-cancel and order lookups read an order's latest report: index reports by (account, order id).
CREATE INDEX execution_reports_by_order ON execution_reports (account, (body->>'orderId'), seq);
